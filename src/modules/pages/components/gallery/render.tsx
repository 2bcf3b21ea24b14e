import type { GalleryDocument } from '../../../addons/gallery/schemas.js';
import type { Translate } from '../../shared/words.js';
import { ResponsiveImage, THUMB_SIZES } from '../image/render.js';

type Item = GalleryDocument['items'][number];

function Items(props: { items: Item[]; group: string }) {
  return (
    <ul class="gallery-items" data-gallery={props.group} data-module="gallery">
      {props.items.map((item) => (
        <li key={item.id}>
          <figure id={`gallery-${item.id}`}>
            <a href={item.asset.src} class="gallery-link" data-gallery-item={item.id}>
              {item.asset.mimeType.startsWith('image/') ? (
                <ResponsiveImage asset={item.asset} alt={item.caption ?? item.asset.name} sizes={THUMB_SIZES} />
              ) : (
                <span class="video">{`Video: ${item.caption ?? item.asset.name}`}</span>
              )}
            </a>
            {item.caption ? <figcaption>{item.caption}</figcaption> : null}
          </figure>
        </li>
      ))}
    </ul>
  );
}

/** The gallery add-on: each section a list of links to the images (the browser code adds the lightbox). */
export function GallerySection(props: { doc: GalleryDocument; t: Translate }) {
  const { doc } = props;
  return (
    <section class="addon gallery" id="gallery" aria-labelledby="gallery-title">
      <h2 id="gallery-title">{props.t('gallery')}</h2>
      {doc.items.length > 0 ? <Items items={doc.items} group="ungrouped" /> : null}
      {doc.sections.map((section) => (
        <section key={section.id} id={`gallery-section-${section.id}`} aria-labelledby={`gallery-section-${section.id}-title`}>
          <h3 id={`gallery-section-${section.id}-title`}>{section.title}</h3>
          {section.description ? <p>{section.description}</p> : null}
          <Items items={section.items} group={section.id} />
        </section>
      ))}
    </section>
  );
}
