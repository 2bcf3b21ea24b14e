import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mapDatabaseError } from '../../../db/errors.js';
import { AppError, errorBody, notFound } from '../../../errors.js';
import { formatValidationErrors, validatorCompiler } from '../../../http/validation.js';
import { isUuid } from '../../../ids.js';
import { shapesEtag } from '../../navigators/frames.js';
import type { Navigator, NavigatorImage, ShapeInput } from '../../navigators/schemas.js';
import { ShapesBody } from '../../navigators/schemas.js';
import { type ImportReport, MAX_SVG_LENGTH, type Reference } from '../../shape-editor/index.js';
import { Notice, Problem } from '../render/forms.js';
import { seeOther, sendHtml } from '../render/html.js';
import { Shell } from '../render/shell.js';
import { CSRF_FIELD, type OrgContext, asUser, hasRole, requireOrg } from '../session.js';
import { editorAssets } from './shapes-assets.js';

/** The API's limit of a shapes PUT (2,000 detailed outlines). */
const SHAPES_BODY_LIMIT = 4 * 1024 * 1024;
/** An SVG file of at most 10 MB, with the form's other fields and multipart framing around it. */
const IMPORT_BODY_LIMIT = MAX_SVG_LENGTH + 256 * 1024;
const DONE: Record<string, string> = { imported: 'The shapes from the SVG file are saved.' };
const STALE_IMPORT =
  'Someone saved shapes on this frame since you checked the file. The report below is against the shapes as they are now: check it and save again.';

type FrameParams = { navigatorId: string; frameId: string };

/** The navigator (with its frames) and one of its frames, of this organization only (404 otherwise). */
async function frameOf(app: FastifyInstance, ctx: OrgContext, params: FrameParams): Promise<{ navigator: Navigator; frame: NavigatorImage }> {
  const navigator = (await app.services.navigators.get(ctx.org.organizationId, params.navigatorId)).value;
  const frame = isUuid(params.frameId) ? navigator.images.find((f) => f.id === params.frameId.toLowerCase()) : undefined;
  if (!frame) throw notFound('Navigator image', params.frameId);
  return { navigator, frame };
}

const navigatorName = (n: Navigator) => n.options.navigatorName || n.seoTitle || 'Navigator';
const frameUrl = (ctx: OrgContext, navigatorId: string, frameId: string) => `${ctx.base}/navigators/${navigatorId}/frames/${frameId}/shapes`;

/** The largest variant of the frame's render (WebP, at most 1920 wide), or the original while none is made. */
function renderSrc(frame: NavigatorImage): string {
  const variants = frame.asset.variants ?? [];
  return variants.length > 0 ? variants[variants.length - 1]!.src : frame.imageUrl;
}

/** JSON data inside the page, never executed (`<` escaped so no `</script>` can close it). */
function JsonData(props: { name: string; value: unknown }) {
  const html = { __html: JSON.stringify(props.value).replace(/</g, '\\u003c') };
  // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON data block, '<' escaped as \u003c
  return <script type="application/json" {...{ [props.name]: '' }} dangerouslySetInnerHTML={html} />;
}

interface ScreenData {
  navigator: Navigator;
  frame: NavigatorImage;
  shapes: NavigatorImage['shapes'];
  etag: string;
  homes: Reference[];
}

async function screenData(app: FastifyInstance, ctx: OrgContext, params: FrameParams): Promise<ScreenData> {
  const { navigator, frame } = await frameOf(app, ctx, params);
  const { shapes, etag } = await app.services.navigators.frames.shapes(ctx.org.organizationId, navigator.id, frame.id);
  const homes = await app.services.navigators.svgImport.homes(ctx.org.organizationId, navigator.estateId);
  return { navigator, frame, shapes, etag, homes };
}

const homeKey = (h: { referenceType: string; referenceId: string }) => `${h.referenceType}:${h.referenceId}`;
const homeLabel = (h: Reference) => (h.referenceType === 'building' ? `${h.name} (building)` : h.externalId ? `${h.name} (${h.externalId})` : h.name);

/** Without JavaScript (and for viewers): the render with its shapes in the status colours, and which homes have one. */
function StaticView(props: { data: ScreenData }) {
  const { navigator, frame, shapes, homes } = props.data;
  const { overlayWidth: width, overlayHeight: height } = navigator.options;
  const byKey = new Map(homes.map((h) => [homeKey(h), h]));
  const drawn = new Set(shapes.map(homeKey));
  const missing = homes.filter((h) => !drawn.has(homeKey(h)));
  const present = homes.filter((h) => drawn.has(homeKey(h)));
  return (
    <div class="shapes-static">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${frame.name}: ${shapes.length} shapes`} preserveAspectRatio="xMidYMid meet">
        <image href={renderSrc(frame)} x="0" y="0" width={String(width)} height={String(height)} preserveAspectRatio="none" />
        {shapes.map((s) => {
          const home = byKey.get(homeKey(s));
          const status = home?.status ? ` se-status-${home.status.toLowerCase()}` : '';
          return (
            <path key={s.id} d={s.shape} class={`se-shape${home ? status : ' se-unassigned'}`}>
              <title>{home ? homeLabel(home) : 'Not assigned'}</title>
            </path>
          );
        })}
      </svg>
      <div>
        <h2>Without a shape on this frame ({missing.length})</h2>
        {missing.length === 0 ? (
          <p>Every home has a shape on this frame.</p>
        ) : (
          <ul class="shapes-homes shapes-missing" aria-label="Homes without a shape">
            {missing.map((h) => (
              <li key={homeKey(h)}>{homeLabel(h)}</li>
            ))}
          </ul>
        )}
        <h2>With a shape ({present.length})</h2>
        <ul class="shapes-homes" aria-label="Homes with a shape">
          {present.map((h) => (
            <li key={homeKey(h)}>{homeLabel(h)}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function FrameScreen(props: { ctx: OrgContext; data: ScreenData; done?: string | undefined; problem?: string | undefined }) {
  const { ctx, data } = props;
  const { navigator, frame } = data;
  const editable = hasRole(ctx, 'editor');
  const assets = editorAssets();
  const here = frameUrl(ctx, navigator.id, frame.id);
  const others = navigator.images.filter((f) => f.id !== frame.id).map((f) => ({ id: f.id, name: f.name }));
  const references = data.homes.map((h) => ({
    referenceType: h.referenceType,
    referenceId: h.referenceId,
    name: h.name,
    ...(h.externalId ? { externalId: h.externalId } : {}),
    ...(h.status ? { status: h.status } : {}),
  }));
  return (
    <Shell ctx={ctx} title={`Shapes of ${frame.name}`} current="shapes">
      <link rel="stylesheet" href={assets.style.href} />
      <p>
        <a href={`${ctx.base}/shapes`}>All navigators</a> · {navigatorName(navigator)}
        {others.length > 0 ? ' · Other frames: ' : null}
        {others.map((f, i) => (
          <span key={f.id}>
            {i > 0 ? ', ' : null}
            <a href={frameUrl(ctx, navigator.id, f.id)}>{f.name}</a>
          </span>
        ))}
      </p>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <Problem text={props.problem} />
      {editable ? (
        <div
          data-module="shape-editor"
          data-render-src={renderSrc(frame)}
          data-render-width={String(navigator.options.overlayWidth)}
          data-render-height={String(navigator.options.overlayHeight)}
          data-shapes-url={`${here}.json`}
          data-frame-shapes-url={`${ctx.base}/navigators/${navigator.id}/frames/{frameId}/shapes.json`}
          data-shapes-etag={data.etag}
          data-import-src={assets.importer.href}
          data-csrf-header="x-csrf-token"
          data-csrf-token={ctx.session.csrf}
        >
          <JsonData name="data-shapes" value={data.shapes} />
          <JsonData name="data-references" value={references} />
          <JsonData name="data-frames" value={others} />
          <StaticView data={data} />
        </div>
      ) : (
        <StaticView data={data} />
      )}
      {editable ? (
        <section aria-labelledby="svg-import-title">
          <h2 id="svg-import-title">Shapes from an SVG file</h2>
          <p class="muted">
            An SVG exported from Inkscape, Figma or Illustrator whose shapes are named after apartments (name or external id) or buildings. You see what matches
            before anything is saved; at most 10 MB.
          </p>
          <form method="post" action={`${here}/import`} enctype="multipart/form-data" aria-label="SVG import">
            <input type="hidden" name={CSRF_FIELD} value={ctx.session.csrf} />
            <input type="hidden" name="version" value={data.etag} />
            <div class="field">
              <label for="field-file">SVG file</label>
              <input id="field-file" type="file" name="file" accept=".svg,image/svg+xml" required />
            </div>
            <button type="submit">Check the file</button>
          </form>
        </section>
      ) : null}
      {editable ? <script type="module" src={assets.script.href} /> : null}
    </Shell>
  );
}

function ReportScreen(props: { ctx: OrgContext; data: ScreenData; report: ImportReport; svg: string; problem?: string | undefined }) {
  const { ctx, data, report } = props;
  const here = frameUrl(ctx, data.navigator.id, data.frame.id);
  const replaced = new Set(report.matched.map(homeKey));
  const replacing = data.shapes.filter((s) => replaced.has(homeKey(s))).length;
  return (
    <Shell ctx={ctx} title={`Import into ${data.frame.name}`} current="shapes">
      <p>
        <a href={here}>Back to the shapes of {data.frame.name}</a>
      </p>
      <Problem text={props.problem} />
      <p>Nothing is saved yet. This is what the file holds:</p>
      <dl class="shapes-report">
        <dt>Matched ({report.matched.length})</dt>
        <dd>
          {report.matched.length === 0 ? (
            'No shape of the file names a home of this estate.'
          ) : (
            <ul aria-label="Matched">
              {report.matched.map((m) => (
                <li key={homeKey(m)}>
                  {m.name} → {m.label}
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Unmatched ({report.unmatched.length})</dt>
        <dd>
          <NameList label="Unmatched" names={report.unmatched} />
        </dd>
        <dt>Duplicates ({report.duplicates.length})</dt>
        <dd>
          <NameList label="Duplicates" names={report.duplicates} suffix=" (the first shape of this home is used)" />
        </dd>
        {report.unnamed > 0 ? (
          <>
            <dt>Without a name</dt>
            <dd>{report.unnamed} shapes have no name of their own and are left out.</dd>
          </>
        ) : null}
        {report.notes.length > 0 ? (
          <>
            <dt>Notes</dt>
            <dd>
              <ul>
                {report.notes.map((note, i) => (
                  <li key={`${i}:${note}`}>{note}</li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
      </dl>
      {report.matched.length > 0 ? (
        <form method="post" action={`${here}/import/confirm`} enctype="multipart/form-data" aria-label="Confirm the import">
          <input type="hidden" name={CSRF_FIELD} value={ctx.session.csrf} />
          <input type="hidden" name="version" value={data.etag} />
          <input type="hidden" name="svg" value={props.svg} />
          <p>
            Saving gives {report.matched.length} homes their shape from the file ({replacing} of them replace a shape they have); the other{' '}
            {data.shapes.length - replacing} shapes of this frame stay.
          </p>
          <button type="submit">Save the imported shapes</button>
        </form>
      ) : null}
    </Shell>
  );
}

interface Row {
  navigator: Navigator;
  depth: number;
}

function ShapesList(props: { ctx: OrgContext; estates: Array<{ id: string; name: string; navigators: Row[] }> }) {
  const { ctx } = props;
  return (
    <Shell ctx={ctx} title="Shapes" current="shapes">
      <p class="muted">The homes drawn on each render of your navigators. Open a frame to draw, assign and import shapes.</p>
      {props.estates.length === 0 ? <p>No estates yet.</p> : null}
      {props.estates.map((estate) => (
        <section key={estate.id} aria-labelledby={`estate-${estate.id}`}>
          <h2 id={`estate-${estate.id}`}>{estate.name}</h2>
          {estate.navigators.length === 0 ? (
            <p>This estate has no navigator yet.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">Frames of the navigators of {estate.name}</caption>
                <thead>
                  <tr>
                    <th scope="col">Navigator</th>
                    <th scope="col">Frame</th>
                    <th scope="col">Shapes</th>
                  </tr>
                </thead>
                <tbody>
                  {estate.navigators.flatMap(({ navigator, depth }) =>
                    navigator.images.length === 0
                      ? [
                          <tr key={navigator.id}>
                            <td>
                              {depth > 0 ? '↳ ' : ''}
                              {navigatorName(navigator)}
                            </td>
                            <td colSpan={2}>No frames yet</td>
                          </tr>,
                        ]
                      : navigator.images.map((f, i) => (
                          <tr key={f.id}>
                            <td>{i === 0 ? `${depth > 0 ? '↳ ' : ''}${navigatorName(navigator)}` : ''}</td>
                            <td>
                              <a href={frameUrl(ctx, navigator.id, f.id)}>{f.name}</a>
                            </td>
                            <td>{f.shapes.length}</td>
                          </tr>
                        )),
                  )}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ))}
    </Shell>
  );
}

function flatten(navigators: Navigator[], depth = 0): Row[] {
  return navigators.flatMap((n) => [{ navigator: n, depth }, ...flatten(n.nested, depth + 1)]);
}

/** A multipart form's fields as a URLSearchParams (files as their text): what the session's CSRF check reads. */
async function multipartForm(request: FastifyRequest, body: Buffer): Promise<URLSearchParams> {
  let data: FormData;
  try {
    data = await new Response(new Uint8Array(body), { headers: { 'content-type': String(request.headers['content-type']) } }).formData();
  } catch {
    throw new AppError('badRequest', 'This form could not be read. Choose the file again and send it.');
  }
  const form = new URLSearchParams();
  for (const [name, value] of data.entries()) form.append(name, typeof value === 'string' ? value : await value.text());
  return form;
}

/** The JSON endpoints answer errors as the API does (errorBody), never the dashboard's pages. */
function jsonErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const mapped = err instanceof AppError ? err : mapDatabaseError(err);
  let status = mapped?.statusCode ?? (err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500);
  let message = mapped?.message ?? err.message;
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') message = 'The request body is too large';
  else if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') [status, message] = [400, 'The request body is not valid JSON'];
  if (status >= 500) {
    request.log.error({ err }, 'dashboard request failed');
    message = 'An unexpected error occurred';
  }
  if (status === 503 && mapped?.retryAfterSeconds) reply.header('retry-after', String(mapped.retryAfterSeconds));
  return reply.code(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(errorBody(status, message));
}

const checkShapes = validatorCompiler({ schema: ShapesBody, method: 'PUT', url: '', httpPart: 'body' }) as ((value: unknown) => boolean) & {
  errors?: Parameters<typeof formatValidationErrors>[0] | null;
};

/** The API's shapes PUT validation, with its messages: 400 for a body that is not an array, 422 naming `[i].field`. */
function validShapes(body: unknown): ShapeInput[] {
  if (!Array.isArray(body)) throw new AppError('badRequest', 'The request body must be a JSON array');
  if (!checkShapes(body)) throw new AppError('unprocessable', formatValidationErrors(checkShapes.errors ?? [], 'body'));
  return body as ShapeInput[];
}

/**
 * Shapes (issue 36, phase 2): the navigators' frames with their shape counts, each frame's screen with
 * the shape editor island (editors and admins; viewers and browsers without JavaScript see the render
 * with its shapes and the homes still missing one), the island's JSON load/save under the session, and
 * the SVG import form that reports before it saves.
 */
export async function shapesScreen(app: FastifyInstance): Promise<void> {
  const navigators = app.services.navigators;
  const config = { auth: 'none' as const };
  editorAssets();
  // Multipart forms of this screen (the SVG import): read whole, up to the limit, as a URLSearchParams.
  if (app.hasContentTypeParser('multipart/form-data')) app.removeContentTypeParser('multipart/form-data');
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMIT }, (request, body, done) => {
    multipartForm(request, body as Buffer).then(
      (form) => done(null, form),
      (err: Error) => done(err, undefined),
    );
  });

  app.get('/shapes', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request);
    const estates = (await app.services.estates.list(ctx.org.organizationId, { limit: 500 })).items;
    const rows = [];
    for (const estate of estates) {
      rows.push({ id: estate.id, name: estate.name, navigators: flatten((await navigators.list(ctx.org.organizationId, estate.id)).value) });
    }
    return sendHtml(reply, <ShapesList ctx={ctx} estates={rows} />);
  });

  const frameRoute = '/navigators/:navigatorId/frames/:frameId/shapes';

  app.get(frameRoute, { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request);
    const data = await screenData(app, ctx, request.params as FrameParams);
    return sendHtml(reply, <FrameScreen ctx={ctx} data={data} done={(request.query as { done?: string }).done} />);
  });

  app.get(`${frameRoute}.json`, { schema: { hide: true }, config, errorHandler: jsonErrors }, async (request, reply) => {
    const ctx = await requireOrg(app, request);
    const { navigatorId, frameId } = request.params as FrameParams;
    const { shapes, etag } = await navigators.frames.shapes(ctx.org.organizationId, navigatorId, frameId);
    return reply.header('etag', etag).header('cache-control', 'no-store').send(shapes);
  });

  app.put(`${frameRoute}.json`, { schema: { hide: true }, config, errorHandler: jsonErrors, bodyLimit: SHAPES_BODY_LIMIT }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const { navigatorId, frameId } = request.params as FrameParams;
    const items = validShapes(request.body);
    const ifMatch = typeof request.headers['if-match'] === 'string' ? request.headers['if-match'] : undefined;
    const frame = await asUser(ctx, () => navigators.frames.replaceShapes(ctx.org.organizationId, navigatorId, frameId, items, ifMatch));
    return reply.header('etag', shapesEtag(frame.shapes)).header('cache-control', 'no-store').send(frame);
  });

  const svgOf = (form: URLSearchParams, field: string): string => {
    const svg = form.get(field) ?? '';
    if (svg.trim() === '') throw new AppError('unprocessable', 'Choose an SVG file to import.');
    if (Buffer.byteLength(svg) > MAX_SVG_LENGTH) throw new AppError('payloadTooLarge', 'The SVG file is larger than 10 MB; export it without embedded images.');
    return svg;
  };
  const formOf = (request: FastifyRequest) => (request.body instanceof URLSearchParams ? request.body : new URLSearchParams());

  app.post(`${frameRoute}/import`, { schema: { hide: true }, config, bodyLimit: IMPORT_BODY_LIMIT }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const params = request.params as FrameParams;
    const form = formOf(request);
    const data = await screenData(app, ctx, params);
    let svg: string;
    try {
      svg = svgOf(form, 'file');
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 422) return sendHtml(reply, <FrameScreen ctx={ctx} data={data} problem={err.message} />, 422);
      throw err;
    }
    const report = await navigators.svgImport.report(ctx.org.organizationId, data.navigator.id, data.frame.id, svg);
    // The version the user saw on the screen: saving checks it, so an edit made since is never overwritten.
    const seen = (form.get('version') ?? '').slice(0, 200) || data.etag;
    const stale = seen !== data.etag;
    return sendHtml(reply, <ReportScreen ctx={ctx} data={data} report={report} svg={svg} problem={stale ? STALE_IMPORT : undefined} />, stale ? 412 : 200);
  });

  app.post(`${frameRoute}/import/confirm`, { schema: { hide: true }, config, bodyLimit: IMPORT_BODY_LIMIT }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const params = request.params as FrameParams;
    const form = formOf(request);
    const svg = svgOf(form, 'svg');
    const version = (form.get('version') ?? '').slice(0, 200);
    const { navigator, frame } = await frameOf(app, ctx, params);
    try {
      await asUser(ctx, () => navigators.svgImport.save(ctx.org.organizationId, navigator.id, frame.id, svg, version || undefined));
      return seeOther(reply, `${frameUrl(ctx, navigator.id, frame.id)}?done=imported`);
    } catch (err) {
      if (!(err instanceof AppError) || (err.statusCode !== 412 && err.statusCode !== 422)) throw err;
      const data = await screenData(app, ctx, params);
      const report = await navigators.svgImport.report(ctx.org.organizationId, navigator.id, frame.id, svg);
      const problem = err.statusCode === 412 ? STALE_IMPORT : `These shapes could not be saved: ${err.message}`;
      return sendHtml(reply, <ReportScreen ctx={ctx} data={data} report={report} svg={svg} problem={problem} />, err.statusCode);
    }
  });
}

/** A list of names in the SVG import's report, or "None.". */
function NameList(props: { label: string; names: readonly string[]; suffix?: string }) {
  if (props.names.length === 0) return <>None.</>;
  return (
    <ul aria-label={props.label}>
      {props.names.map((name, i) => (
        <li key={`${i}:${name}`}>{`${name}${props.suffix ?? ''}`}</li>
      ))}
    </ul>
  );
}
