import { sanitizeSectionHtml } from '../../../addons/investment/sanitize.js';
import type { InvestmentDocument } from '../../../addons/investment/schemas.js';
import type { Translate } from '../../shared/words.js';
import { FileList } from '../file-list/render.js';

/**
 * The investment add-on. Section descriptions are HTML the add-on sanitised when it was written; the
 * page runs the same sanitiser again before inserting it (the one place the page writes HTML it did not
 * build), so a row written by any other path still cannot bring a script or a style attribute.
 */
export function InvestmentSection(props: { doc: InvestmentDocument; locale: string; t: Translate }) {
  return (
    <section class="addon investment" id="investment" aria-labelledby="investment-title">
      <h2 id="investment-title">{props.t('investment')}</h2>
      {props.doc.sections.map((section) => (
        <article key={section.id} id={`investment-${section.id}`}>
          <h3>{section.title}</h3>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by sanitize-html's allow-list just above */}
          <div class="rich" dangerouslySetInnerHTML={{ __html: sanitizeSectionHtml(section.description) }} />
          {section.files.length > 0 ? <FileList files={section.files} locale={props.locale} /> : null}
        </article>
      ))}
    </section>
  );
}
