import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EVENT_TYPES } from '../../webhooks/events.js';
import { CreateWebhookBody, type Delivery, type Webhook } from '../../webhooks/schemas.js';
import { ErrorSummary, type Errors, Field, FieldError, Notice, PostForm, Problem } from '../render/forms.js';
import { seeOther, sendHtml } from '../render/html.js';
import { Shell } from '../render/shell.js';
import { type OrgContext, asUser, requireOrg } from '../session.js';
import { formOf, plain, refusal, text } from './form-body.js';
import { checkWith } from './validate.js';

const LABELS = { url: 'URL', events: 'Events', description: 'Description' };
const DONE: Record<string, string> = {
  saved: 'The webhook is saved.',
  deleted: 'The webhook is deleted: nothing is sent to it any more.',
  retried: 'The delivery is sent again now, as a new attempt; it appears below.',
};
const DELIVERY_STATUS: Record<Delivery['status'], string> = { pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed' };

type Values = { url?: string; events?: string[]; description?: string; enabled?: boolean };

/** The events a form names: the known types only, or `*` alone. */
function eventsOf(form: URLSearchParams): string[] {
  const chosen = form.getAll('events').filter((e) => e === '*' || (EVENT_TYPES as readonly string[]).includes(e));
  return chosen.includes('*') ? ['*'] : [...new Set(chosen)];
}

function WebhookFields(props: { values: Values; errors: Errors }) {
  const { values, errors } = props;
  const chosen = new Set(values.events ?? []);
  const error = errors.events;
  return (
    <>
      <Field
        name="url"
        label="URL"
        type="url"
        hint="Where the service POSTs each event (https; not an address inside a private network)."
        value={values.url}
        errors={errors}
        maxLength={2048}
      />
      <fieldset id="field-events" class={error ? 'field field-error' : 'field'} aria-describedby={error ? 'field-events-error' : undefined}>
        <legend>Events</legend>
        <FieldError id="field-events" error={error} />
        {['*', ...EVENT_TYPES].map((e) => (
          <div key={e}>
            <input type="checkbox" id={`event-${e}`} name="events" value={e} checked={chosen.has(e)} />{' '}
            <label for={`event-${e}`}>{e === '*' ? 'Every event (also those added later)' : e}</label>
          </div>
        ))}
      </fieldset>
      <Field name="description" label="Description (optional)" value={values.description} errors={errors} maxLength={20_000} />
    </>
  );
}

function SecretShown(props: { secret: string | undefined; what: string }) {
  if (!props.secret) return null;
  return (
    <div class="notice">
      <h2>{props.what}</h2>
      <p>
        Copy the signing secret now: it is shown only on this page, never again. Your receiver checks each request’s webhook-signature with it (Standard
        Webhooks).
      </p>
      <div class="field">
        <label for="webhook-secret">Signing secret</label>
        <input id="webhook-secret" readonly value={props.secret} />
      </div>
    </div>
  );
}

function WebhooksScreen(props: {
  ctx: OrgContext;
  hooks: Webhook[];
  errors: Errors;
  values: Values;
  secret?: string | undefined;
  problem?: string | undefined;
  done?: string | undefined;
}) {
  const { ctx } = props;
  return (
    <Shell ctx={ctx} title="Webhooks" current="webhooks">
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <Problem text={props.problem} />
      <SecretShown secret={props.secret} what="Webhook created" />
      <p class="muted">The service tells your systems about changes (a new inquiry, a price changed) by POSTing the event to each webhook’s URL.</p>
      {props.hooks.length === 0 ? (
        <p>No webhooks.</p>
      ) : (
        <ul class="plain">
          {props.hooks.map((h) => (
            <li key={h.id}>
              <a href={`${ctx.base}/webhooks/${h.id}`}>{h.url}</a> — {h.events.join(', ')}
              {h.enabled ? '' : ` (disabled${h.disabledReason ? `: ${h.disabledReason}` : ''})`}
            </li>
          ))}
        </ul>
      )}
      <h2>Add a webhook</h2>
      <ErrorSummary errors={props.errors} labels={LABELS} />
      <PostForm action={`${ctx.base}/webhooks`} csrf={ctx.session.csrf} label="Add a webhook">
        <WebhookFields values={props.values} errors={props.errors} />
        <button type="submit">Add webhook</button>
      </PostForm>
    </Shell>
  );
}

function WebhookScreen(props: {
  ctx: OrgContext;
  hook: Webhook;
  deliveries: Delivery[];
  errors: Errors;
  values: Values;
  secret?: string | undefined;
  problem?: string | undefined;
  done?: string | undefined;
}) {
  const { ctx, hook } = props;
  const here = `${ctx.base}/webhooks/${hook.id}`;
  const time = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;
  return (
    <Shell ctx={ctx} title={`Webhook ${hook.url}`} current="webhooks">
      <p>
        <a href={`${ctx.base}/webhooks`}>All webhooks</a>
      </p>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <Problem text={props.problem} />
      <SecretShown secret={props.secret} what="New signing secret" />
      {hook.enabled ? null : (
        <p class="error-message">Disabled{hook.disabledReason ? `: ${hook.disabledReason}` : ''}. Tick “Enabled” and save to send again.</p>
      )}
      <h2>Edit</h2>
      <ErrorSummary errors={props.errors} labels={LABELS} />
      <PostForm action={here} csrf={ctx.session.csrf} label="Edit the webhook">
        <WebhookFields values={props.values} errors={props.errors} />
        <div class="field">
          <input type="checkbox" id="field-enabled" name="enabled" value="true" checked={props.values.enabled} /> <label for="field-enabled">Enabled</label>
        </div>
        <button type="submit">Save webhook</button>
      </PostForm>
      <h2>Recent deliveries</h2>
      {props.deliveries.length === 0 ? (
        <p class="muted">None yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Recent deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Status</th>
                <th scope="col">Answer</th>
                <th scope="col">Retry</th>
              </tr>
            </thead>
            <tbody>
              {props.deliveries.map((d) => (
                <tr key={d.id}>
                  <td>{time(d.createdAt)}</td>
                  <td>{d.eventType}</td>
                  <td>{d.attempt}</td>
                  <td data-status={d.status}>{DELIVERY_STATUS[d.status]}</td>
                  <td>{d.responseStatus ?? d.error ?? '—'}</td>
                  <td>
                    {d.status === 'failed' ? (
                      <PostForm action={`${here}/deliveries/${d.id}/retry`} csrf={ctx.session.csrf} class="inline">
                        <button type="submit" class="secondary">
                          Retry
                          <span class="visually-hidden">
                            {' '}
                            the {d.eventType} delivery, attempt {d.attempt}
                          </span>
                        </button>
                      </PostForm>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Signing secret</h2>
      <p>A new secret replaces the current one; the current one keeps signing next to it for 24 hours, while you update the receiver.</p>
      <PostForm action={`${here}/rotate`} csrf={ctx.session.csrf} class="inline">
        <button type="submit" class="secondary">
          Rotate the signing secret
        </button>
      </PostForm>
      <h2>Delete</h2>
      <a class="button secondary" href={`${here}/delete`}>
        Delete this webhook
      </a>
    </Shell>
  );
}

/** Admins: webhooks (issue 35): list, create (the signing secret shown once), edit, delete, deliveries and retry. */
export async function webhookScreen(app: FastifyInstance): Promise<void> {
  const webhooks = app.services.webhooks;
  const config = { auth: 'none' as const };
  const valuesOf = (form: URLSearchParams): Values => ({
    url: text(form, 'url', 2100).trim(),
    events: eventsOf(form),
    description: text(form, 'description', 20_100).trim(),
    enabled: form.get('enabled') === 'true',
  });
  /** What the form asks for before the service sees it; the service checks the URL (SSRF) itself. */
  const formErrors = (values: Values): Errors => {
    const errors: Errors = {};
    if (!values.url) errors.url = 'Enter the URL, such as https://crm.example.com/hooks/homes.';
    if (!values.events?.length) errors.events = 'Choose at least one event.';
    if (Object.keys(errors).length > 0) return errors;
    // The API's own schema, in the form's words.
    return checkWith(
      CreateWebhookBody,
      { url: values.url, events: values.events, description: values.description || null },
      {
        url: 'Enter a full address starting with https://, such as https://crm.example.com/hooks/homes.',
        events: 'Choose at least one event.',
        description: 'The description is at most 20,000 characters.',
      },
    );
  };
  /** The service's refusal of the URL (not http(s), credentials, a private address) next to the field. */
  const urlRefusal = (err: unknown): Errors | undefined => {
    const known = refusal(err);
    if (known?.statusCode === 422 || known?.statusCode === 400) return { url: plain(known.message).replace(/^Url /, 'The URL ') };
    return undefined;
  };
  const hookOf = async (ctx: OrgContext, request: FastifyRequest) => webhooks.get(ctx.org.organizationId, (request.params as { hookId: string }).hookId);
  const renderList = async (reply: FastifyReply, ctx: OrgContext, extra: { errors?: Errors; values?: Values; secret?: string; done?: string }, status = 200) =>
    sendHtml(
      reply,
      <WebhooksScreen
        ctx={ctx}
        hooks={await webhooks.list(ctx.org.organizationId)}
        errors={extra.errors ?? {}}
        values={extra.values ?? { events: ['*'] }}
        secret={extra.secret}
        done={extra.done}
      />,
      status,
    );
  const renderOne = async (
    reply: FastifyReply,
    ctx: OrgContext,
    hook: Webhook,
    extra: { errors?: Errors; values?: Values; secret?: string; problem?: string; done?: string },
    status = 200,
  ) => {
    const deliveries = await webhooks.deliveries(ctx.org.organizationId, hook.id, { limit: 20 });
    const values = extra.values ?? { url: hook.url, events: hook.events, description: hook.description ?? '', enabled: hook.enabled };
    return sendHtml(
      reply,
      <WebhookScreen
        ctx={ctx}
        hook={hook}
        deliveries={deliveries.items}
        errors={extra.errors ?? {}}
        values={values}
        secret={extra.secret}
        problem={extra.problem}
        done={extra.done}
      />,
      status,
    );
  };

  app.get('/webhooks', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    return renderList(reply, ctx, { done: (request.query as { done?: string }).done });
  });

  app.post('/webhooks', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    const values = valuesOf(formOf(request));
    const errors = formErrors(values);
    if (Object.keys(errors).length > 0) return renderList(reply, ctx, { errors, values }, 422);
    try {
      const created = await asUser(ctx, () =>
        webhooks.create(ctx.org.organizationId, { url: values.url!, events: values.events as never, description: values.description || null }),
      );
      // The secret is on this answer only, never after a redirect.
      return renderList(reply, ctx, { secret: created.secret }, 201);
    } catch (err) {
      const fields = urlRefusal(err);
      if (fields) return renderList(reply, ctx, { errors: fields, values }, 422);
      const known = refusal(err);
      if (known?.statusCode === 409) return renderList(reply, ctx, { errors: { url: known.message }, values }, 409);
      throw err;
    }
  });

  app.get('/webhooks/:hookId', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    return renderOne(reply, ctx, await hookOf(ctx, request), { done: (request.query as { done?: string }).done });
  });

  app.post('/webhooks/:hookId', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    const hook = await hookOf(ctx, request);
    const values = valuesOf(formOf(request));
    const errors = formErrors(values);
    if (Object.keys(errors).length > 0) return renderOne(reply, ctx, hook, { errors, values }, 422);
    try {
      await asUser(ctx, () =>
        webhooks.update(ctx.org.organizationId, hook.id, {
          url: values.url!,
          events: values.events as never,
          description: values.description || null,
          enabled: values.enabled ?? false,
        }),
      );
    } catch (err) {
      const fields = urlRefusal(err);
      if (fields) return renderOne(reply, ctx, hook, { errors: fields, values }, 422);
      throw err;
    }
    return seeOther(reply, `${ctx.base}/webhooks/${hook.id}?done=saved`);
  });

  app.post('/webhooks/:hookId/rotate', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    const hook = await hookOf(ctx, request);
    try {
      const { secret } = await webhooks.rotateSecret(ctx.org.organizationId, hook.id);
      return renderOne(reply, ctx, hook, { secret }, 200);
    } catch (err) {
      const known = refusal(err);
      if (known?.statusCode === 409) return renderOne(reply, ctx, hook, { problem: known.message }, 409);
      throw err;
    }
  });

  app.post('/webhooks/:hookId/deliveries/:deliveryId/retry', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    const hook = await hookOf(ctx, request);
    try {
      await webhooks.retry(ctx.org.organizationId, hook.id, (request.params as { deliveryId: string }).deliveryId);
    } catch (err) {
      const known = refusal(err);
      if (known?.statusCode === 409) {
        return renderOne(reply, ctx, hook, { problem: 'The webhook is disabled: tick “Enabled” and save it before retrying.' }, 409);
      }
      throw err;
    }
    return seeOther(reply, `${ctx.base}/webhooks/${hook.id}?done=retried`);
  });

  // Deleting asks first, on a page of its own (no JavaScript needed).
  app.get('/webhooks/:hookId/delete', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    const hook = await hookOf(ctx, request);
    return sendHtml(
      reply,
      <Shell ctx={ctx} title="Delete webhook" current="webhooks">
        <p>
          Delete the webhook to <strong>{hook.url}</strong>? Nothing more is sent to it, and its delivery history goes with it.
        </p>
        <PostForm action={`${ctx.base}/webhooks/${hook.id}/delete`} csrf={ctx.session.csrf} class="inline">
          <button type="submit" class="danger">
            Yes, delete it
          </button>
        </PostForm>{' '}
        <a href={`${ctx.base}/webhooks/${hook.id}`}>Cancel</a>
      </Shell>,
    );
  });

  app.post('/webhooks/:hookId/delete', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    const hook = await hookOf(ctx, request);
    await webhooks.delete(ctx.org.organizationId, hook.id);
    return seeOther(reply, `${ctx.base}/webhooks?done=deleted`);
  });
}
