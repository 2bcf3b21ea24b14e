import type { Apartment } from '../../../apartments/schemas.js';
import type { FormState } from '../../render/types.js';
import type { Translate } from '../../shared/words.js';

/** Name of the honeypot field: hidden from people (CSS, aria-hidden, out of the tab order), filled by bots. */
export const HONEYPOT = 'website';

type Field = 'name' | 'email' | 'phoneNumber' | 'info';

function Input(props: {
  field: Field;
  label: string;
  type: 'text' | 'email' | 'tel';
  form: FormState;
  required?: boolean;
  autoComplete: string;
  maxLength: number;
  optional: string;
  t: Translate;
}) {
  const { field, form } = props;
  const error = form.errors[field] && props.t(form.errors[field]);
  const id = `inquiry-${field}`;
  return (
    <p class="field">
      <label for={id}>
        {props.label}
        {props.required ? null : <span class="optional"> {props.optional}</span>}
      </label>
      <input
        id={id}
        name={field}
        type={props.type as 'text'}
        required={props.required}
        autoComplete={props.autoComplete}
        maxLength={props.maxLength}
        value={form.values[field] ?? ''}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <span class="error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </p>
  );
}

/**
 * The inquiry form. Posts application/x-www-form-urlencoded to /p/{slug}/inquiry with the public
 * inquiry's field names; answered 303 to ?sent=1#inquiry, or this form again (422) with each error
 * next to its field. The browser code submits the same form inline.
 */
export function InquiryForm(props: { path: string; form: FormState; about: Apartment | null; t: Translate; privacyPolicyUrl?: string | null }) {
  const { form, t } = props;
  const optional = t('optional');
  const info = form.errors.info && t(form.errors.info);
  if (form.sent) {
    return (
      <section class="inquiry" id="inquiry" aria-labelledby="inquiry-title">
        <h2 id="inquiry-title">{t('askAboutAHome')}</h2>
        <p class="thanks" aria-live="polite">
          {t('thanks')}
        </p>
      </section>
    );
  }
  const selected = new Set(form.values.apartmentIds ?? []);
  // An apartment error without the apartment's checkbox (ids not of this page) is said at the top.
  const formErrorKey = form.errors.form ?? (props.about ? undefined : form.errors.apartmentIds);
  const formError = formErrorKey && t(formErrorKey);
  return (
    <section class="inquiry" id="inquiry" aria-labelledby="inquiry-title" data-module="inquiry-form">
      <h2 id="inquiry-title">{t('askAboutAHome')}</h2>
      <form method="post" action={`${props.path}/inquiry`} novalidate={false} data-inquiry-form>
        {formError ? (
          <p class="error" role="alert" id="inquiry-form-error">
            {formError}
          </p>
        ) : null}
        <Input field="name" label={t('yourName')} type="text" form={form} required autoComplete="name" maxLength={200} optional={optional} t={t} />
        <Input field="email" label={t('email')} type="email" form={form} required autoComplete="email" maxLength={254} optional={optional} t={t} />
        <Input field="phoneNumber" label={t('phone')} type="tel" form={form} autoComplete="tel" maxLength={32} optional={optional} t={t} />
        <p class="field">
          <label for="inquiry-info">
            {t('message')}
            <span class="optional"> {optional}</span>
          </label>
          <textarea
            id="inquiry-info"
            name="info"
            rows={4}
            maxLength={20000}
            aria-invalid={info ? 'true' : undefined}
            aria-describedby={info ? 'inquiry-info-error' : undefined}
          >
            {form.values.info ?? ''}
          </textarea>
          {info ? (
            <span class="error" id="inquiry-info-error">
              {info}
            </span>
          ) : null}
        </p>
        {props.about ? (
          <p class="field about">
            <input
              id="inquiry-apartment"
              type="checkbox"
              name="apartmentIds"
              value={props.about.id}
              checked={selected.size === 0 || selected.has(props.about.id)}
              data-apartment-id={props.about.id}
            />{' '}
            <label for="inquiry-apartment">{t('aboutHome', { name: props.about.name })}</label>
            {form.errors.apartmentIds ? (
              <span class="error" id="inquiry-apartmentIds-error">
                {t(form.errors.apartmentIds)}
              </span>
            ) : null}
          </p>
        ) : null}
        <div class="hp" aria-hidden="true">
          <label for="inquiry-website">{t('leaveEmpty')}</label>
          <input id="inquiry-website" type="text" name={HONEYPOT} tabIndex={-1} autoComplete="off" value="" />
        </div>
        {props.privacyPolicyUrl ? (
          <p class="privacy">
            <a href={props.privacyPolicyUrl} rel="noopener noreferrer" target="_blank">
              {t('privacy')}
            </a>
          </p>
        ) : null}
        <p class="actions">
          <button type="submit">{t('send')}</button>
        </p>
      </form>
    </section>
  );
}
