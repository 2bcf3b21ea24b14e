import type { PageContact } from '../../schemas.js';
import type { Translate } from '../../shared/words.js';

/** The page's contact block (page settings `contact`): each line that is set, phone and e-mail as links. */
export function ContactSection(props: { contact: PageContact; t: Translate }) {
  const { contact: c, t } = props;
  return (
    <section class="contact" id="contact" aria-labelledby="contact-title">
      <h2 id="contact-title">{t('contact')}</h2>
      <address>
        {c.name ? <p class="contact-name">{c.name}</p> : null}
        {c.phone ? (
          <p>
            {`${t('phone')}: `}
            <a href={`tel:${c.phone.replace(/[^+0-9]/g, '')}`}>{c.phone}</a>
          </p>
        ) : null}
        {c.email ? (
          <p>
            {`${t('email')}: `}
            <a href={`mailto:${c.email}`}>{c.email}</a>
          </p>
        ) : null}
        {c.address ? <p class="contact-address">{c.address}</p> : null}
      </address>
      {c.openingHours ? (
        <p>
          {`${t('openingHours')}: `}
          {c.openingHours}
        </p>
      ) : null}
    </section>
  );
}
