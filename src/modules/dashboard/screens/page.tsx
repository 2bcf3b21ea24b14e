import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../errors.js';
import { isUuid } from '../../../ids.js';
import type { Apartment } from '../../apartments/schemas.js';
import type { Estate } from '../../estates/schemas.js';
import type { Navigator } from '../../navigators/schemas.js';
import { type PageSettings, PutPageBody } from '../../pages/schemas.js';
import { ErrorSummary, type Errors, Field, FieldError, Notice, PostForm, Select } from '../render/forms.js';
import { seeOther, sendHtml } from '../render/html.js';
import { Shell } from '../render/shell.js';
import { type OrgContext, asUser, hasRole, requireOrg } from '../session.js';
import { formOf, plain, refusal, text } from './form-body.js';
import { checkWith } from './validate.js';

const LABELS = {
  locale: 'Language and formats',
  navigatorId: 'Navigator',
  embedOrigins: 'Sites that may embed the page',
  privacyPolicyUrl: 'Privacy policy URL',
  'contact.name': 'Contact name',
  'contact.phone': 'Phone',
  'contact.email': 'Email',
  'contact.address': 'Address',
  'contact.openingHours': 'Opening hours',
};
const MESSAGES: Record<string, string> = {
  locale: 'Enter a language tag such as en-US, pl-PL or de.',
  embedOrigins: 'Enter one origin a line, such as https://www.example.com (no path).',
  privacyPolicyUrl: 'Enter the full address of the privacy policy, starting with https://.',
  'contact.name': 'The contact name is at most 200 characters.',
  'contact.phone': 'Enter the phone number with digits, spaces and + ( ) . / - only.',
  'contact.email': 'Enter an email address such as sales@example.com.',
  'contact.address': 'The address is at most 500 characters.',
  'contact.openingHours': 'The opening hours are at most 500 characters.',
};
const CONTACT_FIELDS = ['name', 'phone', 'email', 'address', 'openingHours'] as const;
const DONE: Record<string, string> = {
  saved: 'The page settings are saved.',
  published: 'The page is published: anyone with its address can open it.',
  unpublished: 'The page is unpublished: its address answers “not found” until you publish it again.',
};

/** One thing the page would lack if it were published now, in a sentence. */
export interface Missing {
  id: string;
  text: string;
}

/** The checklist before publishing: what a visitor would miss on the page as it is now. */
export function missingFor(settings: PageSettings, navigators: Navigator[], apartments: Apartment[]): Missing[] {
  const missing: Missing[] = [];
  const navigator = navigators.find((n) => n.id === settings.navigatorId) ?? navigators[0];
  if (!navigator) missing.push({ id: 'navigator', text: 'No navigator: the page shows no view of the estate.' });
  else if (navigator.images.length === 0) missing.push({ id: 'frames', text: `The navigator “${navigator.options.navigatorName}” has no frames (images).` });
  else if (!navigator.images.some((i) => i.shapes.length > 0)) missing.push({ id: 'shapes', text: 'No home is outlined on the navigator’s frames (shapes).' });
  const shown = apartments.filter((a) => a.status !== 'HIDDEN');
  if (shown.length === 0) missing.push({ id: 'apartments', text: 'No apartments to show (none yet, or all hidden).' });
  if (!settings.contact) missing.push({ id: 'contact', text: 'No contact details: visitors see no name, phone or email to reach you.' });
  if (settings.showInquiryForm && !settings.privacyPolicyUrl) missing.push({ id: 'privacy', text: 'The inquiry form links to no privacy policy.' });
  return missing;
}

type Values = Record<string, string | boolean>;

function valuesOf(settings: PageSettings): Values {
  const values: Values = {
    locale: settings.locale,
    navigatorId: settings.navigatorId ?? '',
    embedOrigins: settings.embedOrigins.join('\n'),
    privacyPolicyUrl: settings.privacyPolicyUrl ?? '',
    showApartments: settings.showApartments,
    showInquiryForm: settings.showInquiryForm,
  };
  for (const f of CONTACT_FIELDS) values[`contact.${f}`] = settings.contact?.[f] ?? '';
  return values;
}

function Check(props: { name: string; label: string; checked: boolean }) {
  return (
    <div class="field">
      <input type="checkbox" id={`field-${props.name}`} name={props.name} value="true" checked={props.checked} />{' '}
      <label for={`field-${props.name}`}>{props.label}</label>
    </div>
  );
}

function PageScreen(props: {
  ctx: OrgContext;
  estates: Estate[];
  estate: Estate;
  settings: PageSettings;
  navigators: Navigator[];
  missing: Missing[];
  values: Values;
  errors: Errors;
  preview?: { url: string; expiresAt: string } | undefined;
  done?: string | undefined;
}) {
  const { ctx, estate, settings, values, errors } = props;
  const here = `${ctx.base}/page/${estate.id}`;
  const str = (k: string) => String(values[k] ?? '');
  const admin = hasRole(ctx, 'admin');
  return (
    <Shell ctx={ctx} title={`Page of ${estate.name}`} current="page">
      <Notice text={props.done ? DONE[props.done] : undefined} />
      {props.estates.length > 1 ? (
        <form method="get" action={`${ctx.base}/page`} class="filters">
          <Select name="estateId" label="Estate" options={props.estates.map((e): [string, string] => [e.id, e.name])} value={estate.id} />
          <button type="submit" class="secondary">
            Show
          </button>
        </form>
      ) : null}
      <h2>Status</h2>
      {settings.enabled ? (
        <p>
          <strong data-page-status="published">Published</strong> at{' '}
          <a href={settings.url} target="_blank" rel="noreferrer noopener">
            {settings.url}
          </a>{' '}
          (open the public page)
        </p>
      ) : (
        <p>
          <strong data-page-status="unpublished">Not published</strong>: {settings.url} answers “not found” to visitors. A preview shows it to whoever has the
          link.
        </p>
      )}
      {admin ? (
        settings.enabled ? (
          <PostForm action={`${here}/unpublish`} csrf={ctx.session.csrf} class="inline">
            <button type="submit" class="danger">
              Unpublish
            </button>
          </PostForm>
        ) : (
          <a class="button" href={`${here}/publish`}>
            Publish…
          </a>
        )
      ) : (
        <p class="muted">An admin publishes and unpublishes the page.</p>
      )}
      <h2>Preview</h2>
      {props.preview ? (
        <div class="notice">
          <p>
            <a href={props.preview.url} target="_blank" rel="noreferrer noopener">
              Open the preview
            </a>{' '}
            (valid until {props.preview.expiresAt.slice(0, 16).replace('T', ' ')} UTC; anyone with the link sees the page, marked not for search engines).
          </p>
        </div>
      ) : null}
      {hasRole(ctx, 'editor') ? (
        <PostForm action={`${here}/preview`} csrf={ctx.session.csrf} class="inline">
          <button type="submit" class="secondary">
            Make a preview link
          </button>
        </PostForm>
      ) : null}
      <h2>Settings</h2>
      <ErrorSummary errors={errors} labels={LABELS} />
      <PostForm action={here} csrf={ctx.session.csrf} label="Page settings">
        <Field
          name="locale"
          label={LABELS.locale}
          hint="A language tag (en-US, pl-PL, de): the page’s words, prices, areas and dates follow it. Prices keep each apartment’s currency."
          value={str('locale')}
          errors={errors}
          maxLength={35}
        />
        <Select
          name="navigatorId"
          label={LABELS.navigatorId}
          options={[['', 'The estate’s first navigator'], ...props.navigators.map((n): [string, string] => [n.id, n.options.navigatorName || n.id])]}
          value={str('navigatorId')}
          errors={errors}
        />
        <Check name="showApartments" label="Show the apartment list and details" checked={values.showApartments === true} />
        <Check name="showInquiryForm" label="Show the inquiry form" checked={values.showInquiryForm === true} />
        <Field
          name="privacyPolicyUrl"
          label={LABELS.privacyPolicyUrl}
          type="url"
          hint="The inquiry form links to it. Leave empty for none."
          value={str('privacyPolicyUrl')}
          errors={errors}
          maxLength={2000}
        />
        <div class={errors.embedOrigins ? 'field field-error' : 'field'}>
          <label for="field-embedOrigins">{LABELS.embedOrigins}</label>
          <p class="hint" id="field-embedOrigins-hint">
            One origin a line, such as https://www.your-agency.example. Empty: any site may embed the page.
          </p>
          <FieldError id="field-embedOrigins" error={errors.embedOrigins} />
          <textarea
            id="field-embedOrigins"
            name="embedOrigins"
            rows={3}
            aria-describedby={errors.embedOrigins ? 'field-embedOrigins-hint field-embedOrigins-error' : 'field-embedOrigins-hint'}
            aria-invalid={errors.embedOrigins ? 'true' : undefined}
          >
            {str('embedOrigins')}
          </textarea>
        </div>
        <fieldset>
          <legend>Contact (shown on the page; every line optional)</legend>
          <Field name="contact.name" label={LABELS['contact.name']} value={str('contact.name')} errors={errors} maxLength={200} />
          <Field name="contact.phone" label={LABELS['contact.phone']} type="text" value={str('contact.phone')} errors={errors} maxLength={40} />
          <Field name="contact.email" label={LABELS['contact.email']} type="email" value={str('contact.email')} errors={errors} maxLength={254} />
          <Field name="contact.address" label={LABELS['contact.address']} value={str('contact.address')} errors={errors} maxLength={500} />
          <Field
            name="contact.openingHours"
            label={LABELS['contact.openingHours']}
            hint="Free text, such as Mon–Fri 9:00–17:00."
            value={str('contact.openingHours')}
            errors={errors}
            maxLength={500}
          />
        </fieldset>
        <button type="submit">Save settings</button>
      </PostForm>
    </Shell>
  );
}

function PublishScreen(props: { ctx: OrgContext; estate: Estate; settings: PageSettings; missing: Missing[] }) {
  const { ctx, estate, missing } = props;
  const here = `${ctx.base}/page/${estate.id}`;
  return (
    <Shell ctx={ctx} title={`Publish the page of ${estate.name}`} current="page">
      <p>
        Publishing puts the page on the web at <strong>{props.settings.url}</strong>: anyone with the address can open it, search engines may list it, and
        changes you make afterwards appear on it at once. You can unpublish it at any time.
      </p>
      <h2>Before you publish</h2>
      {missing.length === 0 ? (
        <p data-missing="none">Nothing is missing: the page has a navigator with frames and shapes, apartments to show, and contact details.</p>
      ) : (
        <>
          <p>The page can be published as it is, but it lacks:</p>
          <ul class="missing">
            {missing.map((m) => (
              <li key={m.id} data-missing={m.id}>
                {m.text}
              </li>
            ))}
          </ul>
        </>
      )}
      <PostForm action={`${here}/publish`} csrf={ctx.session.csrf} class="inline">
        <button type="submit">{missing.length === 0 ? 'Publish the page' : 'Publish anyway'}</button>
      </PostForm>{' '}
      <a href={here}>Cancel</a>
    </Shell>
  );
}

/** The form's fields as the API's PUT body, or the errors next to each field (same schema and checks as the API). */
function bodyOf(form: URLSearchParams): { body: PutPageBody; errors: Errors; values: Values } {
  const values: Values = {
    locale: text(form, 'locale', 100).trim(),
    navigatorId: text(form, 'navigatorId', 100),
    embedOrigins: text(form, 'embedOrigins', 20_000),
    privacyPolicyUrl: text(form, 'privacyPolicyUrl', 2100).trim(),
    showApartments: form.get('showApartments') === 'true',
    showInquiryForm: form.get('showInquiryForm') === 'true',
  };
  const contact: Record<string, string> = {};
  for (const f of CONTACT_FIELDS) {
    const value = text(form, `contact.${f}`, 1000).trim();
    values[`contact.${f}`] = value;
    if (value) contact[f] = value;
  }
  const origins = String(values.embedOrigins)
    .split(/\r?\n/)
    .map((o) => o.trim())
    .filter(Boolean);
  const body: PutPageBody = {
    locale: String(values.locale),
    navigatorId: values.navigatorId ? String(values.navigatorId) : null,
    embedOrigins: origins,
    privacyPolicyUrl: values.privacyPolicyUrl ? String(values.privacyPolicyUrl) : null,
    showApartments: values.showApartments === true,
    showInquiryForm: values.showInquiryForm === true,
    contact: Object.keys(contact).length > 0 ? contact : null,
  };
  const { contact: contactError, ...errors } = checkWith(PutPageBody, body as Record<string, unknown>, MESSAGES);
  // The contact block's own fields, named as the form names them.
  if (contactError) {
    const inner = checkWith(PutPageBody.properties.contact, body.contact as Record<string, unknown>, {});
    for (const f of Object.keys(inner)) errors[`contact.${f}`] = MESSAGES[`contact.${f}`] ?? inner[f]!;
  }
  if (errors.navigatorId) errors.navigatorId = 'Choose a navigator of this estate.';
  if (!values.locale) errors.locale = MESSAGES.locale!;
  return { body, errors, values };
}

/** The public page of each estate (issue 35): settings and contact, a preview link, publish (admins) with what is missing first. */
export async function pageScreen(app: FastifyInstance): Promise<void> {
  const { pages, estates, navigators, apartments } = app.services;
  const config = { auth: 'none' as const };
  const estateOf = async (ctx: OrgContext, id: string) => {
    if (!isUuid(id)) throw new AppError('notFound', `Estate with id ${id} not found`);
    return estates.get(ctx.org.organizationId, id.toLowerCase());
  };
  const load = async (ctx: OrgContext, estate: Estate) => {
    const [{ settings }, navs, listed] = await Promise.all([
      pages.settings(estate.id, ctx.org.organizationId),
      navigators.list(ctx.org.organizationId, estate.id),
      apartments.lists.list(ctx.org.organizationId, { estateId: estate.id }),
    ]);
    const all = (JSON.parse(listed.body.identity.toString('utf8')) as { items: Apartment[] }).items;
    const flat: Navigator[] = [];
    const walk = (list: Navigator[]) => {
      for (const n of list) {
        flat.push(n);
        walk(n.nested);
      }
    };
    walk(navs.value);
    return { settings, navigators: flat, missing: missingFor(settings, flat, all) };
  };
  const render = async (
    reply: FastifyReply,
    ctx: OrgContext,
    estate: Estate,
    extra: { values?: Values; errors?: Errors; preview?: { url: string; expiresAt: string }; done?: string },
    status = 200,
  ) => {
    const [list, loaded] = await Promise.all([estates.list(ctx.org.organizationId, { limit: 500 }), load(ctx, estate)]);
    return sendHtml(
      reply,
      <PageScreen
        ctx={ctx}
        estates={list.items}
        estate={estate}
        {...loaded}
        values={extra.values ?? valuesOf(loaded.settings)}
        errors={extra.errors ?? {}}
        preview={extra.preview}
        done={extra.done}
      />,
      status,
    );
  };
  const params = (request: FastifyRequest) => (request.params as { estateId: string }).estateId;

  app.get('/page', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'viewer');
    const wanted = (request.query as { estateId?: string }).estateId;
    if (wanted) return seeOther(reply, `${ctx.base}/page/${encodeURIComponent(wanted)}`);
    const first = (await estates.list(ctx.org.organizationId, { limit: 1 })).items[0];
    if (!first) {
      return sendHtml(
        reply,
        <Shell ctx={ctx} title="Page" current="page">
          <p>
            No estates yet. <a href={`${ctx.base}/estates`}>Create an estate</a> first.
          </p>
        </Shell>,
      );
    }
    return seeOther(reply, `${ctx.base}/page/${first.id}`);
  });

  app.get('/page/:estateId', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'viewer');
    return render(reply, ctx, await estateOf(ctx, params(request)), { done: (request.query as { done?: string }).done });
  });

  app.post('/page/:estateId', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const estate = await estateOf(ctx, params(request));
    const { body, errors, values } = bodyOf(formOf(request));
    if (Object.keys(errors).length > 0) return render(reply, ctx, estate, { values, errors }, 422);
    try {
      await asUser(ctx, () => pages.put(ctx.org.organizationId, estate.id, body));
    } catch (err) {
      const known = refusal(err);
      if (known?.statusCode === 422) {
        const message = known.message;
        const field = /embedOrigins/.test(message)
          ? 'embedOrigins'
          : /locale/.test(message)
            ? 'locale'
            : /navigatorId/.test(message)
              ? 'navigatorId'
              : 'locale';
        return render(reply, ctx, estate, { values, errors: { [field]: MESSAGES[field] ?? plain(message) } }, 422);
      }
      throw err;
    }
    return seeOther(reply, `${ctx.base}/page/${estate.id}?done=saved`);
  });

  app.post('/page/:estateId/preview', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const estate = await estateOf(ctx, params(request));
    const preview = await pages.preview(ctx.org.organizationId, estate.id);
    return render(reply, ctx, estate, { preview });
  });

  app.get('/page/:estateId/publish', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    const estate = await estateOf(ctx, params(request));
    const { settings, missing } = await load(ctx, estate);
    return sendHtml(reply, <PublishScreen ctx={ctx} estate={estate} settings={settings} missing={missing} />);
  });

  const setEnabled = (enabled: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
    const ctx = await requireOrg(app, request, 'admin');
    const estate = await estateOf(ctx, params(request));
    await asUser(ctx, () => pages.put(ctx.org.organizationId, estate.id, { enabled }));
    return seeOther(reply, `${ctx.base}/page/${estate.id}?done=${enabled ? 'published' : 'unpublished'}`);
  };
  app.post('/page/:estateId/publish', { schema: { hide: true }, config }, setEnabled(true));
  app.post('/page/:estateId/unpublish', { schema: { hide: true }, config }, setEnabled(false));
}
