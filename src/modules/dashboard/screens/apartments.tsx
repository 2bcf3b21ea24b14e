import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BoundWork, boundWork } from '../../../db/bound-work.js';
import { AppError } from '../../../errors.js';
import type { CompressibleBody } from '../../../http/compression.js';
import { isUuid } from '../../../ids.js';
import { APARTMENT_STATUSES, type Apartment } from '../../apartments/schemas.js';
import type { Estate } from '../../estates/schemas.js';
import { Notice, PostForm, Problem } from '../render/forms.js';
import { seeOther, sendHtml } from '../render/html.js';
import { Shell } from '../render/shell.js';
import { type OrgContext, asUser, hasRole, requireOrg } from '../session.js';
import { STATUS_WORDS, apartmentRowsHtml, keptApartmentRowsHtml } from './apartment-rows.js';
import { type ImportPlan, exportCsv, formatPrice, parsePrice, planImport } from './apartments-csv.js';
import { STALE } from './estates.js';
import { formOf, refusal, text } from './form-body.js';

const SORTS: Array<[string, string]> = [
  ['name', 'Name (A–Z)'],
  ['-name', 'Name (Z–A)'],
  ['priceCents', 'Price (low to high)'],
  ['-priceCents', 'Price (high to low)'],
  ['-updatedAt', 'Recently changed'],
];
const DONE: Record<string, string> = {
  saved: 'The apartment is saved.',
  bulk: 'The status of the selected apartments is changed.',
  imported: 'The import is done: the apartments are created and changed as the preview said.',
};
const IMPORT_STALE =
  'Someone changed the apartments or buildings of this estate since the preview, so nothing was imported. Choose the file again to see a new preview.';

interface Filter {
  estateId?: string;
  buildingId?: string | undefined;
  status?: string;
  sort?: string;
}

/** The filter of the screen's URL: anything unexpected is left out (a person's URL, not an API call). */
function filterOf(query: Record<string, unknown>): Filter {
  const f: Filter = {};
  const id = (k: string) => (typeof query[k] === 'string' && isUuid(query[k] as string) ? (query[k] as string).toLowerCase() : undefined);
  const estateId = id('estateId');
  if (estateId) f.estateId = estateId;
  const buildingId = id('buildingId');
  if (buildingId) f.buildingId = buildingId;
  if (typeof query.status === 'string' && (APARTMENT_STATUSES as readonly string[]).includes(query.status)) f.status = query.status;
  if (typeof query.sort === 'string' && SORTS.some(([s]) => s === query.sort)) f.sort = query.sort;
  return f;
}

const queryOf = (f: Filter) => new URLSearchParams(Object.entries(f).filter(([, v]) => v !== undefined) as Array<[string, string]>).toString();

/**
 * A kept list's items, parsed once: the list cache (apartments/lists.ts) answers the same body while nothing
 * changed, so 2,000 apartments are parsed on the first screen after a change, not on every one (the parse cost
 * about as much as the API's four pages; docs/performance.md, "The dashboard"). Read only, never changed.
 */
const parsedItems = new WeakMap<CompressibleBody, readonly Apartment[]>();
function itemsOf(body: CompressibleBody): readonly Apartment[] {
  let items = parsedItems.get(body);
  if (!items) {
    items = (JSON.parse(body.identity.toString('utf8')) as { items: Apartment[] }).items;
    parsedItems.set(body, items);
  }
  return items;
}

interface TableState {
  ctx: OrgContext;
  estates: Estate[];
  estate: Estate | undefined;
  filter: Filter;
  apartments: readonly Apartment[];
  /** The kept list answer the apartments were read from: their rows are kept beside it (keptApartmentRowsHtml). */
  list?: CompressibleBody | undefined;
  rowErrors?: Record<string, string>;
  problem?: string | undefined;
  done?: string | undefined;
}

function ApartmentsTable(props: TableState) {
  const { ctx, estate, filter } = props;
  const editable = hasRole(ctx, 'editor');
  const back = queryOf(filter);
  const base = `${ctx.base}/apartments`;
  const rowsContext = { base, csrf: ctx.session.csrf, back, editable, rowErrors: props.rowErrors };
  const rows = props.list ? keptApartmentRowsHtml(props.list, props.apartments, rowsContext) : apartmentRowsHtml(props.apartments, rowsContext);
  return (
    <Shell ctx={ctx} title="Apartments" current="apartments">
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <Problem text={props.problem} />
      <form method="get" action={base} class="filters" aria-label="Filter apartments">
        <div class="field">
          <label for="filter-estate">Estate</label>
          <select id="filter-estate" name="estateId">
            {props.estates.map((e) => (
              <option key={e.id} value={e.id} selected={e.id === estate?.id}>
                {e.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-building">Building</label>
          <select id="filter-building" name="buildingId">
            <option value="">All buildings</option>
            {(estate?.buildings ?? []).map((b) => (
              <option key={b.id} value={b.id} selected={b.id === filter.buildingId}>
                {b.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-status">Status</label>
          <select id="filter-status" name="status">
            <option value="">Any status</option>
            {APARTMENT_STATUSES.map((s) => (
              <option key={s} value={s} selected={s === filter.status}>
                {STATUS_WORDS[s]}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-sort">Sort by</label>
          <select id="filter-sort" name="sort">
            {SORTS.map(([value, label]) => (
              <option key={value} value={value} selected={value === (filter.sort ?? 'name')}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" class="secondary">
          Apply filters
        </button>
      </form>
      {estate ? (
        <div class="actions">
          <a class="button secondary" href={`${base}/export.csv?${back}`}>
            Export CSV
          </a>
          {editable ? (
            <a class="button secondary" href={`${base}/import?estateId=${estate.id}`}>
              Import CSV
            </a>
          ) : null}
        </div>
      ) : (
        <p>Set up an estate first.</p>
      )}
      {editable && props.apartments.length > 0 ? (
        <PostForm action={`${base}/bulk-status`} csrf={ctx.session.csrf} id="bulk" class="actions" label="Selected apartments">
          <input type="hidden" name="back" value={back} />
          <label for="bulk-status">New status of the selected apartments</label>
          <select id="bulk-status" name="status">
            {APARTMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_WORDS[s]}
              </option>
            ))}
          </select>
          <button type="submit">Set status of selected</button>
        </PostForm>
      ) : null}
      <p class="muted">{props.apartments.length} apartments</p>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">Apartments{estate ? ` of ${estate.name}` : ''}</caption>
          <thead>
            <tr>
              {editable ? (
                <th scope="col">
                  <span class="visually-hidden">Select</span>
                </th>
              ) : null}
              <th scope="col">Name</th>
              <th scope="col">Building</th>
              <th scope="col">Status</th>
              <th scope="col">Price</th>
              {editable ? (
                <th scope="col">
                  <span class="visually-hidden">Save</span>
                </th>
              ) : null}
            </tr>
          </thead>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: every value escaped in apartmentRowsHtml as preact escapes (its test compares the two) */}
          <tbody dangerouslySetInnerHTML={{ __html: rows }} />
        </table>
      </div>
    </Shell>
  );
}

function ImportScreen(props: { ctx: OrgContext; estate: Estate; plan?: ImportPlan; csv?: string; problem?: string }) {
  const { ctx, estate, plan } = props;
  const base = `${ctx.base}/apartments`;
  const blocked = plan && plan.errors.length > 0;
  return (
    <Shell ctx={ctx} title={`Import apartments into ${estate.name}`} current="apartments">
      <p>
        <a href={`${base}?estateId=${estate.id}`}>Back to the apartments</a>
      </p>
      <Problem text={props.problem} />
      {plan ? (
        <>
          {blocked ? (
            <div class="error-summary" role="alert">
              <h2>The file has {plan.errors.length === 1 ? 'a problem' : `${plan.errors.length} problems`}; nothing was imported</h2>
              <ul>
                {plan.errors.slice(0, 200).map((e) => (
                  <li key={e.line}>{e.message}</li>
                ))}
              </ul>
            </div>
          ) : (
            <div class="notice">
              <h2>Preview: nothing is saved until you confirm</h2>
              <p>
                {plan.creates.length} to create, {plan.updates.length} to change, {plan.unchanged} unchanged.
              </p>
            </div>
          )}
          {!blocked && plan.creates.length + plan.updates.length > 0 ? (
            <>
              <div class="table-wrap">
                <table>
                  <caption>What the import will do</caption>
                  <thead>
                    <tr>
                      <th scope="col">Line</th>
                      <th scope="col">Apartment</th>
                      <th scope="col">Building</th>
                      <th scope="col">Change</th>
                    </tr>
                  </thead>
                  <tbody>
                    {[...plan.creates.map((c) => ({ ...c, what: 'Create' })), ...plan.updates.map((u) => ({ ...u, what: u.summary.join(', ') }))]
                      .sort((x, y) => x.line - y.line)
                      .slice(0, 500)
                      .map((c) => (
                        <tr key={c.line}>
                          <td>{c.line}</td>
                          <td>{c.name}</td>
                          <td>{c.building}</td>
                          <td>{c.what}</td>
                        </tr>
                      ))}
                  </tbody>
                </table>
              </div>
              <PostForm action={`${base}/import/confirm?estateId=${estate.id}`} csrf={ctx.session.csrf} label="Confirm import">
                <input type="hidden" name="csv" value={props.csv} />
                <button type="submit">Confirm import</button>
              </PostForm>
            </>
          ) : null}
        </>
      ) : null}
      <h2>{plan ? 'Choose another file' : 'Choose a CSV file'}</h2>
      <p class="muted">
        Columns: building, name, status, price, currency (the first line names them; export a CSV to start from). An apartment already in the building with that
        name is changed; any other is created.
      </p>
      <form method="post" action={`${base}/import?estateId=${estate.id}`} enctype="multipart/form-data" aria-label="Import CSV">
        <input type="hidden" name="_csrf" value={ctx.session.csrf} />
        <div class="field">
          <label for="field-file">CSV file</label>
          <input id="field-file" name="file" type="file" accept=".csv,text/csv" />
        </div>
        <button type="submit">Preview import</button>
      </form>
    </Shell>
  );
}

const safeBack = (value: string | null) => (value && /^[\w=&%.,-]*$/.test(value) ? value : '');

/** Apartments of an estate as a table: filters, sort, inline status and price, bulk status, CSV export and import. */
export async function apartmentScreen(app: FastifyInstance): Promise<void> {
  const { apartments, estates } = app.services;
  const config = { auth: 'none' as const };

  const load = async (ctx: OrgContext, given: Filter) => {
    const filter = { ...given };
    const list = (await estates.list(ctx.org.organizationId, { limit: 500 })).items;
    const estate = list.find((e) => e.id === filter.estateId) ?? list[0];
    if (filter.estateId && estate?.id !== filter.estateId) throw new AppError('notFound', `Estate with id ${filter.estateId} not found`);
    // A building of another estate (the estate was switched in the filter): all buildings.
    if (filter.buildingId && !estate?.buildings.some((b) => b.id === filter.buildingId)) filter.buildingId = undefined;
    let items: readonly Apartment[] = [];
    let body: CompressibleBody | undefined;
    if (estate) {
      const listed = await apartments.lists.list(ctx.org.organizationId, {
        estateId: estate.id,
        ...(filter.buildingId ? { buildingId: filter.buildingId } : {}),
        ...(filter.status ? { status: filter.status } : {}),
        sort: (filter.sort ?? 'name') as 'name',
      });
      items = itemsOf(listed.body);
      body = listed.body;
    }
    return { estates: list, estate, apartments: items, list: body, filter: { ...filter, ...(estate ? { estateId: estate.id } : {}) } };
  };
  const table = async (reply: FastifyReply, ctx: OrgContext, filter: Filter, extra: Partial<TableState> = {}, status = 200) =>
    sendHtml(reply, <ApartmentsTable ctx={ctx} {...(await load(ctx, filter))} {...extra} />, status);

  app.get('/apartments', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request);
    return table(reply, ctx, filterOf(request.query as Record<string, unknown>), { done: (request.query as { done?: string }).done });
  });

  app.get('/apartments/export.csv', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request);
    const loaded = await load(ctx, filterOf(request.query as Record<string, unknown>));
    const name = (loaded.estate?.slug ?? 'apartments').replace(/[^\w-]/g, '');
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}-apartments.csv"`)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(exportCsv(loaded.apartments));
  });

  app.post('/apartments/bulk-status', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const form = formOf(request);
    const back = safeBack(form.get('back'));
    const filter = filterOf(Object.fromEntries(new URLSearchParams(back)));
    const status = text(form, 'status', 20);
    const ids = form.getAll('ids').filter(isUuid).slice(0, 5000);
    if (!(APARTMENT_STATUSES as readonly string[]).includes(status)) return table(reply, ctx, filter, { problem: 'Choose a status.' }, 422);
    if (ids.length === 0) return table(reply, ctx, filter, { problem: 'Select at least one apartment first.' }, 422);
    try {
      await asUser(ctx, () => apartments.bulkUpdate(ctx.org.organizationId, { apartments: ids.map((id) => ({ id, status: status as 'SOLD' })) }));
    } catch (err) {
      if (refusal(err)?.statusCode === 404)
        return table(reply, ctx, filter, { problem: 'Some of the selected apartments no longer exist; nothing was changed.' }, 404);
      throw err;
    }
    return seeOther(reply, `${ctx.base}/apartments?${back}${back ? '&' : ''}done=bulk`);
  });

  app.post('/apartments/:apartmentId', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const id = (request.params as { apartmentId: string }).apartmentId;
    const form = formOf(request);
    const back = safeBack(form.get('back'));
    const filter = filterOf(Object.fromEntries(new URLSearchParams(back)));
    const input: { status?: 'ACTIVE'; priceCents?: number | null } = {};
    const status = form.get('status');
    if (status !== null) {
      if (!(APARTMENT_STATUSES as readonly string[]).includes(status)) return table(reply, ctx, filter, { problem: 'Choose a status.' }, 422);
      input.status = status as 'ACTIVE';
    }
    const price = form.get('price');
    if (price !== null) {
      const cents = parsePrice(price.slice(0, 40));
      if (cents === undefined) return table(reply, ctx, filter, { rowErrors: { [id.toLowerCase()]: 'Enter a price such as 245000 or 245000.50.' } }, 422);
      input.priceCents = cents;
    }
    // The row's version is the apartment's updatedAt as the table showed it (cheaper to write 2,000 times than an ETag): when it is
    // still current, the update is made under the current ETag, so a change after this read is refused inside the update as well.
    const version = text(form, 'version', 200);
    let ifMatch: string | undefined;
    if (version) {
      const current = await apartments.get(ctx.org.organizationId, id);
      if (current.apartment.updatedAt !== version) return table(reply, ctx, filter, { problem: STALE }, 412);
      ifMatch = current.etag;
    }
    try {
      await asUser(ctx, () => apartments.update(ctx.org.organizationId, id, input, ifMatch));
    } catch (err) {
      if (refusal(err)?.statusCode === 412) return table(reply, ctx, filter, { problem: STALE }, 412);
      throw err;
    }
    return seeOther(reply, `${ctx.base}/apartments?${back}${back ? '&' : ''}done=saved#apartment-${id.toLowerCase()}`);
  });

  const estateFor = async (ctx: OrgContext, request: FastifyRequest) => {
    const estateId = String((request.query as { estateId?: unknown }).estateId ?? '');
    if (!isUuid(estateId)) throw new AppError('notFound', `Estate with id ${estateId} not found`);
    return estates.get(ctx.org.organizationId, estateId.toLowerCase());
  };
  const planFor = async (ctx: OrgContext, estate: Estate, csv: string) => {
    const listed = await apartments.lists.list(ctx.org.organizationId, { estateId: estate.id });
    return planImport(csv, estate.buildings, itemsOf(listed.body));
  };

  app.get('/apartments/import', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    return sendHtml(reply, <ImportScreen ctx={ctx} estate={await estateFor(ctx, request)} />);
  });

  // The file arrives as multipart (its own scope: only this route parses it); the preview writes nothing.
  await app.register(async (scope) => {
    await scope.register(multipart, { attachFieldsToBody: 'keyValues', limits: { fileSize: 5 * 1024 * 1024, files: 1, fields: 5 } });
    scope.post('/apartments/import', { schema: { hide: true }, config }, async (request, reply) => {
      const ctx = await requireOrg(app, request, 'editor');
      const estate = await estateFor(ctx, request);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const file = body.file;
      const csv = Buffer.isBuffer(file) ? file.toString('utf8') : typeof file === 'string' ? file : '';
      if (!csv.trim()) {
        const plan = { creates: [], updates: [], unchanged: 0, errors: [{ line: 0, message: 'Choose a CSV file.' }] };
        return sendHtml(reply, <ImportScreen ctx={ctx} estate={estate} plan={plan} />, 422);
      }
      const plan = await planFor(ctx, estate, csv);
      return sendHtml(reply, <ImportScreen ctx={ctx} estate={estate} plan={plan} csv={csv} />, plan.errors.length > 0 ? 422 : 200);
    });
  });

  app.post('/apartments/import/confirm', { schema: { hide: true }, config, bodyLimit: 8 * 1024 * 1024 }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const estate = await estateFor(ctx, request);
    const csv = formOf(request).get('csv') ?? '';
    // Planned again from what is stored now: the same file gives the preview's plan unless someone changed the apartments meanwhile.
    const plan = await planFor(ctx, estate, csv);
    if (plan.errors.length > 0) return sendHtml(reply, <ImportScreen ctx={ctx} estate={estate} plan={plan} />, 422);
    // One transaction for the whole import (src/db/bound-work.ts): each service's own transaction becomes a savepoint of it, so a
    // refusal of a later step (a name someone took since the preview) undoes the earlier ones, and the events the steps wrote to the
    // outbox are delivered only when it commits.
    const work = new BoundWork(async () => undefined);
    try {
      await boundWork.run(work, () =>
        asUser(ctx, async () => {
          if (plan.updates.length > 0) {
            await apartments.bulkUpdate(ctx.org.organizationId, { apartments: plan.updates.map((u) => ({ id: u.id!, ...u.fields }) as never) });
          }
          const byBuilding = new Map<string, typeof plan.creates>();
          for (const c of plan.creates) byBuilding.set(c.building, [...(byBuilding.get(c.building) ?? []), c]);
          for (const [buildingName, creates] of byBuilding) {
            const building = estate.buildings.find((b) => b.name === buildingName)!;
            await apartments.bulkCreate(ctx.org.organizationId, {
              buildingId: building.id,
              apartments: creates.map((c) => ({ name: c.name, ...c.fields }) as never),
            });
          }
        }),
      );
      await work.end(async () => undefined);
    } catch (err) {
      await work.end();
      const refused = refusal(err);
      if (refused && (refused.statusCode === 404 || refused.statusCode === 409 || refused.statusCode === 412)) {
        return sendHtml(reply, <ImportScreen ctx={ctx} estate={estate} problem={IMPORT_STALE} />, 409);
      }
      throw err;
    }
    return seeOther(reply, `${ctx.base}/apartments?estateId=${estate.id}&done=imported`);
  });
}
