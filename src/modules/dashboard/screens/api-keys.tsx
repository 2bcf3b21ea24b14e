import type { FastifyInstance, FastifyReply } from 'fastify';
import { type ApiKey, CreateKeyBody, type IssuedKey } from '../../organizations/schemas.js';
import type { ApiKeyScope } from '../../organizations/service.js';
import { ErrorSummary, type Errors, Field, Notice, PostForm, Problem, Select } from '../render/forms.js';
import { seeOther, sendHtml } from '../render/html.js';
import { Shell } from '../render/shell.js';
import { type OrgContext, requireOrg } from '../session.js';
import { formOf, plain, refusal, text } from './form-body.js';
import { checkWith } from './validate.js';

/** The kinds of key a person picks from, as the API's scopes. */
const KINDS: Record<string, { label: string; scopes: ApiKeyScope[] }> = {
  write: { label: 'Read and write (a server, an ERP sync)', scopes: ['read', 'write'] },
  read: { label: 'Read only (reports, a website’s server)', scopes: ['read'] },
  publishable: { label: 'Publishable (a browser: reads only what the public page shows)', scopes: ['publishable'] },
};
const LABELS = { name: 'Name', kind: 'Kind' };
const DONE: Record<string, string> = { revoked: 'The key is revoked: requests with it are refused from now on.' };

const day = (iso: string | null) => (iso ? new Date(iso).toISOString().slice(0, 10) : '—');

/** When a key was last used, to the minute (it is recorded at most once a minute), in UTC; "Never" when not yet. */
function LastUsed(props: { iso: string | null }) {
  if (!props.iso) return <>Never</>;
  const at = new Date(props.iso).toISOString();
  return <time datetime={at}>{`${at.slice(0, 10)} ${at.slice(11, 16)} UTC`}</time>;
}

function status(key: ApiKey): string {
  if (key.revokedAt) return `Revoked ${day(key.revokedAt)}`;
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return `Expired ${day(key.expiresAt)}`;
  return key.expiresAt ? `Active until ${day(key.expiresAt)}` : 'Active';
}

function KeysScreen(props: {
  ctx: OrgContext;
  keys: Array<ApiKey & { lastUsedAt: string | null }>;
  errors: Errors;
  values: { name?: string; kind?: string };
  issued?: IssuedKey | undefined;
  problem?: string | undefined;
  done?: string | undefined;
}) {
  const { ctx, issued } = props;
  return (
    <Shell ctx={ctx} title="API keys" current="api-keys">
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <Problem text={props.problem} />
      {issued ? (
        <div class="notice">
          <h2>Key “{issued.name}” created</h2>
          <p>Copy the secret now: it is shown only on this page, never again. Store it where your program reads it.</p>
          <div class="field">
            <label for="new-key-secret">Secret of {issued.name}</label>
            <input id="new-key-secret" readonly value={issued.apiKey} />
          </div>
        </div>
      ) : null}
      <p class="muted">
        Programs use a key to read and change this organization’s data through the API (header Authorization: Bearer …). “Last used” is recorded to the minute.
      </p>
      {props.keys.length === 0 ? (
        <p>No keys.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">API keys of {ctx.org.organizationName}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Starts with</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">Revoke</th>
              </tr>
            </thead>
            <tbody>
              {props.keys.map((k) => (
                <tr key={k.id}>
                  <th scope="row">{k.name}</th>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td>{k.scopes.join(', ')}</td>
                  <td>{day(k.createdAt)}</td>
                  <td>
                    <LastUsed iso={k.lastUsedAt} />
                  </td>
                  <td>{status(k)}</td>
                  <td>
                    {k.revokedAt ? (
                      '—'
                    ) : (
                      <PostForm action={`${ctx.base}/api-keys/${k.id}/revoke`} csrf={ctx.session.csrf} class="inline">
                        <button type="submit" class="danger">
                          Revoke<span class="visually-hidden"> key {k.name}</span>
                        </button>
                      </PostForm>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Create a key</h2>
      <ErrorSummary errors={props.errors} labels={LABELS} />
      <PostForm action={`${ctx.base}/api-keys`} csrf={ctx.session.csrf} label="Create a key">
        <Field name="name" label="Name" hint="What uses it, such as “website” or “ERP sync”." value={props.values.name} errors={props.errors} maxLength={200} />
        <Select
          name="kind"
          label="Kind"
          options={Object.entries(KINDS).map(([value, k]): [string, string] => [value, k.label])}
          value={props.values.kind ?? 'write'}
          errors={props.errors}
        />
        <button type="submit">Create key</button>
      </PostForm>
    </Shell>
  );
}

/** Admins: the organization's API keys (issue 35): list, create (the secret shown once), revoke. */
export async function apiKeyScreen(app: FastifyInstance): Promise<void> {
  const organizations = app.services.organizations;
  const config = { auth: 'none' as const };
  const render = async (
    reply: FastifyReply,
    ctx: OrgContext,
    extra: { errors?: Errors; values?: { name?: string; kind?: string }; issued?: IssuedKey; problem?: string; done?: string },
    status = 200,
  ) =>
    sendHtml(
      reply,
      <KeysScreen
        ctx={ctx}
        keys={await organizations.listKeysWithUse(ctx.org.organizationId)}
        errors={extra.errors ?? {}}
        values={extra.values ?? {}}
        issued={extra.issued}
        problem={extra.problem}
        done={extra.done}
      />,
      status,
    );

  app.get('/api-keys', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    return render(reply, ctx, { done: (request.query as { done?: string }).done });
  });

  app.post('/api-keys', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    const form = formOf(request);
    const values = { name: text(form, 'name', 1000), kind: text(form, 'kind', 20) };
    const errors: Errors = {};
    if (!values.name.trim()) errors.name = 'Enter a name, such as “website”.';
    else if (values.name.trim().length > 200) errors.name = 'The name is at most 200 characters.';
    const kind = KINDS[values.kind];
    if (!kind) errors.kind = 'Choose the kind of key.';
    if (kind && !errors.name) {
      // The API's own schema, in the form's words.
      Object.assign(errors, checkWith(CreateKeyBody, { name: values.name.trim(), scopes: kind.scopes }, { name: 'Check the name: at most 200 characters.' }));
    }
    if (Object.keys(errors).length > 0 || !kind) return render(reply, ctx, { errors, values }, 422);
    try {
      const issued = await organizations.createKey(ctx.org.organizationId, { name: values.name.trim(), scopes: kind.scopes });
      // The secret is on this answer only (no redirect: it stays out of the history, and no later page has it).
      return render(reply, ctx, { issued }, 201);
    } catch (err) {
      const known = refusal(err);
      if (known?.statusCode === 422) return render(reply, ctx, { errors: { kind: plain(known.message) }, values }, 422);
      throw err;
    }
  });

  app.post('/api-keys/:keyId/revoke', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    try {
      await organizations.revokeOwnKey(ctx.org.organizationId, (request.params as { keyId: string }).keyId);
    } catch (err) {
      const known = refusal(err);
      if (known?.statusCode === 409) {
        return render(reply, ctx, { problem: 'This is the organization’s last read-and-write key: create another one before revoking it.' }, 409);
      }
      throw err;
    }
    return seeOther(reply, `${ctx.base}/api-keys?done=revoked`);
  });
}
