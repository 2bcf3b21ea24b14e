import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../../errors.js';
import { isUuid } from '../../../ids.js';
import type { Domain } from '../../domains/schemas.js';
import type { Estate } from '../../estates/schemas.js';
import { ErrorSummary, type Errors, Field, Notice, PostForm, Select } from '../render/forms.js';
import { seeOther, sendHtml } from '../render/html.js';
import { Shell } from '../render/shell.js';
import { type OrgContext, asUser, requireOrg } from '../session.js';
import { formOf, plain, refusal, text } from './form-body.js';

const LABELS = { estateId: 'Estate', hostname: 'Hostname' };
const DONE: Record<string, string> = {
  added: 'The hostname is added. Create its TXT record, then choose “Verify”.',
  verified: 'The hostname is verified: the estate’s page is served there.',
  removed: 'The hostname is removed: the estate’s page is no longer served there.',
};
const STATUS: Record<string, string> = {
  pending: 'Pending: the TXT record has not been seen yet',
  verified: 'Verified',
  unverified: 'Unverified: its TXT record has been missing; verify again',
};

type EstateDomains = { estate: Estate; domains: Domain[] };

/** What DNS answered for a failed verification, in the dashboard's words. */
function verifyProblem(err: AppError): string {
  const found = /is not verified: (.*)\. Create a TXT record/s.exec(err.message)?.[1];
  if (found) return `Not verified yet. DNS answered: ${found}. Check the TXT record below; DNS changes may take a while to be seen.`;
  if (err.statusCode === 503) return `Could not check now: ${err.message}.`;
  return plain(err.message);
}

const path = (ctx: OrgContext, estateId: string, hostname: string) => `${ctx.base}/domains/${estateId}/${encodeURIComponent(hostname)}`;

function DomainsScreen(props: {
  ctx: OrgContext;
  estates: EstateDomains[];
  errors: Errors;
  values: { estateId?: string; hostname?: string };
  /** A failed verification's explanation, shown next to its hostname. */
  problems: Record<string, string>;
  done?: string | undefined;
}) {
  const { ctx } = props;
  const csrf = ctx.session.csrf;
  let n = 0;
  return (
    <Shell ctx={ctx} title="Domains" current="domains">
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <p class="muted">
        An estate’s page at your own hostname. Point the hostname at this service (a CNAME or A record), create the TXT record shown, then verify.
      </p>
      {props.estates.length === 0 ? <p>No estates yet.</p> : null}
      {props.estates.map(({ estate, domains }) => (
        <section key={estate.id} aria-labelledby={`estate-${estate.id}`}>
          <h2 id={`estate-${estate.id}`}>{estate.name}</h2>
          {domains.length === 0 ? (
            <p class="muted">No hostnames; the page is at /p/{estate.slug}.</p>
          ) : (
            <ul class="plain">
              {domains.map((d) => {
                const i = n++;
                const problem = props.problems[d.hostname];
                return (
                  <li key={d.hostname} class={problem ? 'field field-error' : 'field'}>
                    <h3>{d.hostname}</h3>
                    <p>
                      Status: <strong data-status={d.status}>{STATUS[d.status] ?? d.status}</strong>
                    </p>
                    {problem ? (
                      <p class="error-message" id={`domain-${i}-error`} role="alert">
                        <span class="visually-hidden">Error: </span>
                        {problem}
                      </p>
                    ) : null}
                    <div class="field">
                      <label for={`txt-name-${i}`}>TXT record name</label>
                      <input id={`txt-name-${i}`} readonly value={d.verification.txtName} />
                    </div>
                    <div class="field">
                      <label for={`txt-value-${i}`}>TXT record value</label>
                      <input id={`txt-value-${i}`} readonly value={d.verification.txtValue} />
                    </div>
                    <PostForm action={`${path(ctx, estate.id, d.hostname)}/verify`} csrf={csrf} class="inline">
                      <button type="submit">
                        Verify<span class="visually-hidden"> {d.hostname}</span>
                      </button>
                    </PostForm>{' '}
                    <a class="button secondary" href={`${path(ctx, estate.id, d.hostname)}/remove`}>
                      Remove<span class="visually-hidden"> {d.hostname}</span>
                    </a>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      ))}
      {props.estates.length > 0 ? (
        <>
          <h2>Add domain</h2>
          <ErrorSummary errors={props.errors} labels={LABELS} />
          <PostForm action={`${ctx.base}/domains`} csrf={csrf} label="Add domain">
            <Select
              name="estateId"
              label="Estate"
              options={props.estates.map(({ estate }): [string, string] => [estate.id, estate.name])}
              value={props.values.estateId}
              errors={props.errors}
            />
            <Field
              name="hostname"
              label="Hostname"
              hint="Such as homes.your-agency.example (not a bare domain suffix, not an IP address)."
              value={props.values.hostname}
              errors={props.errors}
              maxLength={253}
            />
            <button type="submit">Add domain</button>
          </PostForm>
        </>
      ) : null}
    </Shell>
  );
}

function ConfirmRemove(props: { ctx: OrgContext; estate: Estate; domain: Domain }) {
  const { ctx, estate, domain } = props;
  return (
    <Shell ctx={ctx} title="Remove domain" current="domains">
      <p>
        Remove <strong>{domain.hostname}</strong> from {estate.name}? The estate’s page is no longer served there and no new certificate is issued for it. You
        can add it again later (it then needs verifying again).
      </p>
      <PostForm action={`${path(ctx, estate.id, domain.hostname)}/remove`} csrf={ctx.session.csrf} class="inline">
        <button type="submit" class="danger">
          Yes, remove {domain.hostname}
        </button>
      </PostForm>{' '}
      <a href={`${ctx.base}/domains`}>Cancel</a>
    </Shell>
  );
}

/** Admins: the hostnames of every estate (issue 37): add, the TXT record to copy, verify, status, remove. */
export async function domainScreen(app: FastifyInstance): Promise<void> {
  const domains = app.services.domains;
  const config = { auth: 'none' as const };
  const all = async (ctx: OrgContext): Promise<EstateDomains[]> => {
    const page = await app.services.estates.list(ctx.org.organizationId, { limit: 500 });
    return Promise.all(page.items.map(async (estate) => ({ estate, domains: await domains.list(ctx.org.organizationId, estate.id) })));
  };
  const render = async (
    reply: FastifyReply,
    ctx: OrgContext,
    extra: { errors?: Errors; values?: { estateId?: string; hostname?: string }; problems?: Record<string, string>; done?: string },
    status = 200,
  ) =>
    sendHtml(
      reply,
      <DomainsScreen
        ctx={ctx}
        estates={await all(ctx)}
        errors={extra.errors ?? {}}
        values={extra.values ?? {}}
        problems={extra.problems ?? {}}
        done={extra.done}
      />,
      status,
    );
  const estateIdOf = (id: string) => {
    if (!isUuid(id)) throw new AppError('notFound', `Estate with id ${id} not found`);
    return id.toLowerCase();
  };
  const domainOf = async (ctx: OrgContext, params: { estateId: string; hostname: string }) => {
    const estateId = estateIdOf(params.estateId);
    const estate = await app.services.estates.get(ctx.org.organizationId, estateId);
    const domain = (await domains.list(ctx.org.organizationId, estate.id)).find((d) => d.hostname === params.hostname.toLowerCase());
    if (!domain) throw new AppError('notFound', `Domain ${params.hostname} not found`);
    return { estate, domain };
  };

  app.get('/domains', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    return render(reply, ctx, { done: (request.query as { done?: string }).done });
  });

  app.post('/domains', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    const form = formOf(request);
    const values = { estateId: text(form, 'estateId', 200), hostname: text(form, 'hostname', 1000) };
    if (!values.hostname.trim()) return render(reply, ctx, { values, errors: { hostname: 'Enter the hostname, such as homes.your-agency.example.' } }, 422);
    if (!isUuid(values.estateId)) return render(reply, ctx, { values, errors: { estateId: 'Choose the estate.' } }, 422);
    try {
      await asUser(ctx, () => domains.add(ctx.org.organizationId, values.estateId.toLowerCase(), { hostname: values.hostname.trim() }));
    } catch (err) {
      const known = refusal(err);
      if (known?.statusCode === 422) return render(reply, ctx, { values, errors: { hostname: plain(known.message) } }, 422);
      if (known?.statusCode === 409) return render(reply, ctx, { values, errors: { hostname: 'This hostname is connected to another estate.' } }, 409);
      if (known?.statusCode === 404) return render(reply, ctx, { values, errors: { estateId: 'Choose the estate.' } }, 422);
      throw err;
    }
    return seeOther(reply, `${ctx.base}/domains?done=added`);
  });

  app.post('/domains/:estateId/:hostname/verify', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    const { estate, domain } = await domainOf(ctx, request.params as { estateId: string; hostname: string });
    try {
      await asUser(ctx, () => domains.verify(ctx.org.organizationId, estate.id, domain.hostname));
    } catch (err) {
      const known = refusal(err);
      if (known?.statusCode === 422 || known?.statusCode === 503) {
        return render(reply, ctx, { problems: { [domain.hostname]: verifyProblem(known) } }, known.statusCode);
      }
      throw err;
    }
    return seeOther(reply, `${ctx.base}/domains?done=verified`);
  });

  // Removal asks first, on a page of its own (no JavaScript needed).
  app.get('/domains/:estateId/:hostname/remove', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    const { estate, domain } = await domainOf(ctx, request.params as { estateId: string; hostname: string });
    return sendHtml(reply, <ConfirmRemove ctx={ctx} estate={estate} domain={domain} />);
  });

  app.post('/domains/:estateId/:hostname/remove', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    const { estate, domain } = await domainOf(ctx, request.params as { estateId: string; hostname: string });
    await asUser(ctx, () => domains.remove(ctx.org.organizationId, estate.id, domain.hostname));
    return seeOther(reply, `${ctx.base}/domains?done=removed`);
  });
}
