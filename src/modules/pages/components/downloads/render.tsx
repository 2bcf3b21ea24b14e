import type { DownloadsDocument } from '../../../addons/downloads/schemas.js';
import type { Translate } from '../../shared/words.js';
import { FileList } from '../file-list/render.js';

/** The downloads add-on: groups of files with their type and size. */
export function DownloadsSection(props: { doc: DownloadsDocument; locale: string; t: Translate }) {
  return (
    <section class="addon downloads" id="downloads" aria-labelledby="downloads-title">
      <h2 id="downloads-title">{props.t('downloads')}</h2>
      {props.doc.groups.map((group) => (
        <section key={group.id} id={`downloads-${group.id}`} aria-labelledby={`downloads-${group.id}-title`}>
          <h3 id={`downloads-${group.id}-title`}>{group.title}</h3>
          <FileList files={group.items} locale={props.locale} />
        </section>
      ))}
    </section>
  );
}
