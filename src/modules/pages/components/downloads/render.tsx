import type { DownloadsDocument } from '../../../addons/downloads/schemas.js';
import { fileSize, fileType } from '../../render/format.js';
import type { Translate } from '../../shared/words.js';

/** The downloads add-on: groups of files with their type and size. */
export function DownloadsSection(props: { doc: DownloadsDocument; locale: string; t: Translate }) {
  return (
    <section class="addon downloads" id="downloads" aria-labelledby="downloads-title">
      <h2 id="downloads-title">{props.t('downloads')}</h2>
      {props.doc.groups.map((group) => (
        <section key={group.id} id={`downloads-${group.id}`} aria-labelledby={`downloads-${group.id}-title`}>
          <h3 id={`downloads-${group.id}-title`}>{group.title}</h3>
          <ul class="files">
            {group.items.map((item) => (
              <li key={item.id}>
                <a href={item.asset.src} download>
                  {item.label || item.asset.name}
                </a>{' '}
                <span class="meta">
                  ({fileType(item.asset.mimeType)}, {fileSize(item.asset.sizeBytes, props.locale)})
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
