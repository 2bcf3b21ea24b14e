import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../errors.js';
import { unstorableText } from '../../../http/validation.js';
import { isUuid } from '../../../ids.js';
import { isRasterImage } from '../../assets/images/render.js';
import { assetsRepository } from '../../assets/repository.js';
import { type Asset, MAX_UPLOAD_BYTES } from '../../assets/schemas.js';
import { islandScript } from '../assets.js';
import { FieldError, Notice, PostForm } from '../render/forms.js';
import { seeOther, sendHtml } from '../render/html.js';
import { Shell } from '../render/shell.js';
import { type OrgContext, asUser, checkCsrf, hasRole, requireOrg } from '../session.js';
import { plain, refusal } from './form-body.js';

/** Files one upload form may carry; each is one asset, checked and stored as the API's upload does. */
export const MAX_FILES_PER_UPLOAD = 20;
const PAGE = 50;

const DONE: Record<string, string> = {
  uploaded: 'The files are uploaded. Their thumbnails appear once their variants are made.',
  deleted: 'The asset is deleted.',
};

/** The words for each kind of use (the API's `usedBy`), singular and plural. */
const USES: Record<string, [string, string]> = {
  apartments: ['apartment', 'apartments'],
  gallery: ['gallery item', 'gallery items'],
  investment: ['investment file', 'investment files'],
  downloads: ['download', 'downloads'],
  mapLogo: ['map logo', 'map logos'],
  navigatorFrames: ['navigator frame', 'navigator frames'],
};

/** What deleting does to each use (DELETE /asset/{id}: add-on items go, apartments keep the id). */
const ON_DELETE: Record<string, string> = {
  apartments: 'Apartments keep the asset’s id in their list of assets, but it no longer names a file.',
  gallery: 'Gallery items showing it are removed from their galleries.',
  investment: 'Investment files naming it are removed from their sections.',
  downloads: 'Downloads naming it are removed from their groups.',
  mapLogo: 'The map’s logo is cleared.',
  navigatorFrames: 'Navigator frames showing it are removed, with their shapes and points.',
};

/** Per estate, the uses of one asset: `[[estate name, [[kind, count]…]]…]`. */
export type Usage = Array<{ estate: string; uses: Array<{ kind: string; n: number }> }>;

const usageText = (uses: Usage[number]['uses']) => uses.map(({ kind, n }) => `${n} ${USES[kind]?.[n === 1 ? 0 : 1] ?? kind}`).join(', ');

export function kindOf(mimeType: string): string {
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/pdf') return 'PDF document';
  const [major, minor = ''] = type.split('/');
  const sub = minor.replace(/^(x-|vnd\.)/, '').toUpperCase();
  if (major === 'image') return `Image (${sub === 'SVG+XML' ? 'SVG' : sub})`;
  if (major === 'video') return `Video (${sub})`;
  if (major === 'audio') return `Audio (${sub})`;
  if (major === 'text') return `Text (${sub})`;
  return type;
}

export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The smallest variant of an image (or the original of one narrower than every variant); none for other files. */
export function thumbnailOf(asset: Pick<Asset, 'mimeType' | 'src' | 'variants'>): string | undefined {
  if (asset.variants[0]) return asset.variants[0].src;
  return isRasterImage(asset.mimeType) ? asset.src : undefined;
}

function Thumbnail(props: { asset: Asset }) {
  const src = thumbnailOf(props.asset);
  if (!src) return <span class="thumb thumb-none" aria-hidden="true" />;
  return <img class="thumb" src={src} alt="" width={80} height={60} loading="lazy" />;
}

function AssetsScreen(props: {
  ctx: OrgContext;
  assets: Asset[];
  usage: Map<string, Usage>;
  offset: number;
  total: number;
  error?: string | undefined;
  done?: string | undefined;
}) {
  const { ctx, offset, total } = props;
  const editable = hasRole(ctx, 'editor');
  return (
    <Shell ctx={ctx} title="Assets" current="assets">
      <Notice text={props.done ? DONE[props.done] : undefined} />
      {editable ? (
        <section aria-labelledby="upload-title">
          <h2 id="upload-title">Upload files</h2>
          <form
            method="post"
            action={`${ctx.base}/assets/upload`}
            enctype="multipart/form-data"
            aria-labelledby="upload-title"
            data-upload-island=""
            novalidate
          >
            <input type="hidden" name="_csrf" value={ctx.session.csrf} />
            <div class={props.error ? 'field field-error' : 'field'}>
              <label for="field-files">Files</label>
              <p class="hint" id="field-files-hint">
                Up to {MAX_FILES_PER_UPLOAD} files at once, each at most 20 MB: images, videos, PDFs and other documents. Images get thumbnails and responsive
                variants.
              </p>
              <FieldError id="field-files" error={props.error} />
              <input
                id="field-files"
                name="files"
                type="file"
                multiple
                aria-describedby={props.error ? 'field-files-hint field-files-error' : 'field-files-hint'}
                aria-invalid={props.error ? 'true' : undefined}
              />
            </div>
            <button type="submit">Upload</button>
            <div class="upload-progress" data-upload-progress="" hidden>
              <h3>Progress</h3>
              <ul class="plain" data-upload-list="" />
              <p role="status" aria-live="polite" data-upload-status="" />
            </div>
          </form>
        </section>
      ) : null}
      <h2>Files</h2>
      {props.assets.length === 0 ? (
        <p>No files yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Files of {ctx.org.organizationName}</caption>
            <thead>
              <tr>
                <th scope="col">Preview</th>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">Size</th>
                <th scope="col">Used by</th>
                {editable ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {props.assets.map((asset) => {
                const usage = props.usage.get(asset.id) ?? [];
                return (
                  <tr key={asset.id} data-asset-id={asset.id}>
                    <td>
                      <Thumbnail asset={asset} />
                    </td>
                    <th scope="row">
                      <a href={asset.src}>{asset.name}</a>
                    </th>
                    <td>{kindOf(asset.mimeType)}</td>
                    <td>{sizeText(asset.sizeBytes)}</td>
                    <td>
                      {usage.length === 0 ? (
                        <span class="muted">Not used</span>
                      ) : (
                        <ul class="plain">
                          {usage.map((u) => (
                            <li key={u.estate}>
                              {u.estate}: {usageText(u.uses)}
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                    {editable ? (
                      <td>
                        <a class="button secondary" href={`${ctx.base}/assets/${asset.id}/delete`}>
                          Delete<span class="visually-hidden"> {asset.name}</span>
                        </a>
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {total > PAGE ? (
        <nav aria-label="Pages of files" class="actions">
          <span>
            Files {offset + 1} to {Math.min(offset + PAGE, total)} of {total}
          </span>
          {offset > 0 ? <a href={`${ctx.base}/assets?offset=${Math.max(0, offset - PAGE)}`}>Newer files</a> : null}
          {offset + PAGE < total ? <a href={`${ctx.base}/assets?offset=${offset + PAGE}`}>Older files</a> : null}
        </nav>
      ) : null}
      {editable ? <script src={islandScript().href} defer /> : null}
    </Shell>
  );
}

function ConfirmDelete(props: { ctx: OrgContext; asset: Asset; usage: Usage }) {
  const { ctx, asset, usage } = props;
  const kinds = [...new Set(usage.flatMap((u) => u.uses.map((x) => x.kind)))];
  return (
    <Shell ctx={ctx} title="Delete file" current="assets">
      <p>
        Delete <strong>{asset.name}</strong> ({kindOf(asset.mimeType)}, {sizeText(asset.sizeBytes)})? The file and its variants are removed; this cannot be
        undone.
      </p>
      {usage.length === 0 ? (
        <p>Nothing uses this file.</p>
      ) : (
        <div class="warning" role="note" aria-labelledby="used-title">
          <h2 id="used-title">This file is in use</h2>
          <ul>
            {usage.map((u) => (
              <li key={u.estate}>
                {u.estate}: {usageText(u.uses)}
              </li>
            ))}
          </ul>
          <p>Deleting it:</p>
          <ul>
            {kinds.map((k) => (
              <li key={k}>{ON_DELETE[k] ?? k}</li>
            ))}
          </ul>
        </div>
      )}
      <PostForm action={`${ctx.base}/assets/${asset.id}/delete`} csrf={ctx.session.csrf} class="inline">
        <button type="submit" class="danger">
          Yes, delete {asset.name}
        </button>
      </PostForm>{' '}
      <a href={`${ctx.base}/assets`}>Cancel</a>
    </Shell>
  );
}

/** The request came from the upload island (XMLHttpRequest): it wants the outcome as data, not a page. */
const fromIsland = (request: FastifyRequest) => request.headers['x-requested-with'] === 'upload-island';

/** Assets: the organization's files (thumbnails, kind, size, what uses them per estate), upload of several at once, delete. */
export async function assetScreen(app: FastifyInstance): Promise<void> {
  const service = app.services.assets;
  const config = { auth: 'none' as const };

  const usageOf = async (ctx: OrgContext, ids: string[]): Promise<Map<string, Usage>> => {
    const result = new Map<string, Usage>();
    if (ids.length === 0) return result;
    const [rows, estates] = await Promise.all([
      assetsRepository.usageCounts(app.deps.db, ctx.org.organizationId, ids),
      app.services.estates.list(ctx.org.organizationId, { limit: 500 }),
    ]);
    const names = new Map(estates.items.map((e) => [e.id, e.name]));
    const order = Object.keys(USES);
    for (const row of rows) {
      const usage = result.get(row.assetId) ?? [];
      result.set(row.assetId, usage);
      const estate = names.get(row.estateId) ?? 'Another estate';
      let entry = usage.find((u) => u.estate === estate);
      if (!entry) {
        entry = { estate, uses: [] };
        usage.push(entry);
      }
      entry.uses.push({ kind: row.kind, n: Number(row.n) });
      entry.uses.sort((x, y) => order.indexOf(x.kind) - order.indexOf(y.kind));
    }
    for (const usage of result.values()) usage.sort((x, y) => x.estate.localeCompare(y.estate));
    return result;
  };

  const render = async (reply: FastifyReply, ctx: OrgContext, extra: { offset?: number; error?: string; done?: string }, status = 200) => {
    const offset = extra.offset ?? 0;
    const page = await service.list(ctx.org.organizationId, { offset, limit: PAGE });
    const usage = await usageOf(
      ctx,
      page.items.map((a) => a.id),
    );
    return sendHtml(
      reply,
      <AssetsScreen ctx={ctx} assets={page.items} usage={usage} offset={offset} total={page.total} error={extra.error} done={extra.done} />,
      status,
    );
  };

  const assetOf = async (ctx: OrgContext, id: string) => {
    if (!isUuid(id)) throw new AppError('notFound', `Asset with id ${id} not found`);
    const asset = await service.get(ctx.org.organizationId, id.toLowerCase());
    return { asset, usage: (await usageOf(ctx, [asset.id])).get(asset.id) ?? [] };
  };

  app.get('/assets', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request);
    const query = request.query as { done?: string; offset?: string };
    const offset = Math.min(Math.max(Number.parseInt(query.offset ?? '0', 10) || 0, 0), 1_000_000);
    return render(reply, ctx, { offset, done: query.done });
  });

  // The upload streams each file through the API's own upload (same limits, same sniffing), in its own
  // scope: only it parses multipart. Its CSRF field is the form's first part, checked before any file is read.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      // A file over the limit is cut and marked truncated, and the upload refuses it (413) as the API's does; the
      // files after it are still read.
      throwFileSizeLimit: false,
      limits: {
        fileSize: MAX_UPLOAD_BYTES,
        files: MAX_FILES_PER_UPLOAD,
        fields: 1,
        fieldSize: 1024,
        parts: MAX_FILES_PER_UPLOAD + 2,
        headerPairs: 50,
        fieldNameSize: 100,
      },
    });
    scope.post('/assets/upload', { schema: { hide: true }, config: { ...config, dashboardCsrfInHandler: true } }, async (request, reply) => {
      const ctx = await requireOrg(app, request, 'editor');
      const header = request.headers['x-csrf-token'];
      if (!request.isMultipart()) {
        checkCsrf(ctx.session, typeof header === 'string' ? header : undefined);
        return render(reply, ctx, { error: 'Choose the files to upload.' }, 422);
      }
      const parts = request.parts();
      const uploaded: Asset[] = [];
      const failed: Array<{ name: string; message: string; status: number }> = [];
      let checked = false;
      let chosen = 0;
      try {
        for await (const part of parts) {
          if (!checked) {
            checkCsrf(ctx.session, part.type === 'field' && part.fieldname === '_csrf' ? String(part.value) : typeof header === 'string' ? header : undefined);
            checked = true;
            if (part.type === 'field') continue;
          }
          if (part.type === 'field') continue;
          if (part.fieldname !== 'files' || !part.filename) {
            // An empty file input sends one part with no file name: nothing chosen.
            part.file.resume();
            continue;
          }
          chosen++;
          const problem = unstorableText(part.filename);
          if (problem) {
            part.file.resume();
            failed.push({ name: part.filename.slice(0, 200), message: `The file name ${problem}.`, status: 422 });
            continue;
          }
          const file = part.file;
          try {
            const asset = await asUser(ctx, () =>
              service.upload(ctx.org.organizationId, {
                file,
                filename: part.filename,
                declaredType: part.mimetype,
                name: undefined,
                wasTruncated: () => file.truncated,
              }),
            );
            uploaded.push(asset);
            // The row is committed (one statement): its variants are made in the background.
            service.created(ctx.org.organizationId, asset);
          } catch (err) {
            const known = refusal(err);
            if (!known || known.statusCode >= 500) throw err;
            file.resume();
            const message = known.statusCode === 413 ? 'It is larger than 20 MB, the upload limit.' : plain(known.message);
            failed.push({ name: part.filename, message, status: known.statusCode });
          }
        }
      } catch (err) {
        if (err instanceof AppError && err.statusCode === 403) throw err;
        const e = err as { code?: string };
        if (e.code === 'FST_FILES_LIMIT' || e.code === 'FST_PARTS_LIMIT')
          failed.push({ name: '', message: `At most ${MAX_FILES_PER_UPLOAD} files at once; the rest were not uploaded.`, status: 413 });
        else if (err instanceof AppError || (e.code ?? '').startsWith('FST_'))
          failed.push({ name: '', message: 'The upload could not be read to its end.', status: 400 });
        else throw err;
      }
      if (!checked) checkCsrf(ctx.session, typeof header === 'string' ? header : undefined);
      if (chosen === 0 && failed.length === 0) failed.push({ name: '', message: 'Choose the files to upload.', status: 422 });
      const status = failed.length === 0 ? 201 : Math.max(...failed.map((f) => f.status));
      if (fromIsland(request)) {
        return reply
          .code(status)
          .header('cache-control', 'no-store')
          .send({ uploaded: uploaded.map((a) => ({ id: a.id, name: a.name })), failed: failed.map(({ name, message }) => ({ name, message })) });
      }
      if (failed.length === 0) return seeOther(reply, `${ctx.base}/assets?done=uploaded`);
      const kept = uploaded.length > 0 ? ` ${uploaded.map((a) => a.name).join(', ')} ${uploaded.length === 1 ? 'is' : 'are'} uploaded.` : '';
      const error = failed.map((f) => (f.name ? `${f.name} is not uploaded: ${f.message}` : f.message)).join(' ') + kept;
      return render(reply, ctx, { error }, status);
    });
  });

  // Deletion asks first, on a page of its own that says where the file is used and what deleting does.
  app.get('/assets/:assetId/delete', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const { asset, usage } = await assetOf(ctx, (request.params as { assetId: string }).assetId);
    return sendHtml(reply, <ConfirmDelete ctx={ctx} asset={asset} usage={usage} />);
  });

  app.post('/assets/:assetId/delete', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const { asset } = await assetOf(ctx, (request.params as { assetId: string }).assetId);
    await asUser(ctx, () => service.delete(ctx.org.organizationId, asset.id));
    return seeOther(reply, `${ctx.base}/assets?done=deleted`);
  });
}
