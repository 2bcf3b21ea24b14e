import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../errors.js';
import { isUuid } from '../../../ids.js';
import type { Asset } from '../../assets/schemas.js';
import type { Estate } from '../../estates/schemas.js';
import { BOOLEAN_OPTIONS, FONT_FAMILIES, NUMBER_OPTIONS, type Navigator, OptionsInput, THEME_VARIABLES } from '../../navigators/schemas.js';
import type { NavigatorPatch } from '../../navigators/service.js';
import { normaliseColour } from '../../navigators/theme.js';
import { ErrorSummary, type Errors, Field, FieldError, Notice, PostForm, Problem, Select } from '../render/forms.js';
import { seeOther, sendHtml } from '../render/html.js';
import { Shell } from '../render/shell.js';
import { type OrgContext, asUser, hasRole, requireOrg } from '../session.js';
import { formOf, plain, refusal, text } from './form-body.js';
import { checkWith } from './validate.js';

/** Each option of the spec with its label and help text, in the order the form shows them. */
const NUMBER_HELP: Record<(typeof NUMBER_OPTIONS)[number], [string, string]> = {
  sourceWidth: ['Source width (px)', 'Width of the rendered images. Set from the first frame unless you set it.'],
  sourceHeight: ['Source height (px)', 'Height of the rendered images. Set from the first frame unless you set it.'],
  overlayWidth: ['Overlay width (px)', 'Width of the space shapes are drawn in: the renders’ pixels. Every frame has this aspect ratio (within 1%).'],
  overlayHeight: ['Overlay height (px)', 'Height of the space shapes are drawn in.'],
  startingAngle: ['Starting angle (°)', 'The angle shown first, 0 to under 360.'],
  minimalSidebarWidthPercent: ['Smallest sidebar width (%)', 'The apartment list’s narrowest width, as a share of the screen (0–100).'],
  northFrameIndex: ['North frame', 'Which frame faces north, counted from 0 by angle (for the compass).'],
};
const BOOLEAN_HELP: Record<(typeof BOOLEAN_OPTIONS)[number], string> = {
  canFreelyRotate: 'Visitors may rotate freely between frames (not only step by step)',
  disableHidingSidebar: 'The apartment list cannot be hidden',
  noApartmentsViewer: 'No apartment list next to the view',
  mirroredRotationCameraMovement: 'Dragging rotates the other way (mirrored)',
  isLoopable: 'Rotation loops from the last frame back to the first',
  favouritesEnabled: 'Visitors can mark favourite apartments',
  compassEnabled: 'Show a compass (uses the north frame)',
};
/** The fields the error summary links to (the theme's colours are listed unlinked). */
const FIELD_LABELS: Record<string, string> = {
  ...Object.fromEntries(NUMBER_OPTIONS.map((k) => [k, NUMBER_HELP[k][0]])),
  navigatorName: 'Name',
  hideFilters: 'Hidden list filters',
  hideColumns: 'Hidden list columns',
  angle: 'Angle',
  assetId: 'Image',
  uploadAngle: 'Angle of the new frame',
  file: 'Image file',
  fontFamily: 'Font family',
};
/** What each option accepts, as the API's schema says it (schemas.ts). */
const OPTION_MESSAGES: Record<string, string> = {
  sourceWidth: 'Enter a width above 0 and at most 100,000 pixels.',
  sourceHeight: 'Enter a height above 0 and at most 100,000 pixels.',
  overlayWidth: 'Enter a width above 0 and at most 100,000 pixels.',
  overlayHeight: 'Enter a height above 0 and at most 100,000 pixels.',
  startingAngle: 'Enter an angle from 0 to under 360.',
  minimalSidebarWidthPercent: 'Enter a percentage from 0 to 100.',
  northFrameIndex: 'Enter a whole number from 0 (the first frame by angle).',
  navigatorName: 'The name is at most 200 characters.',
  hideFilters: 'At most 100 names of at most 100 characters each.',
  hideColumns: 'At most 100 names of at most 100 characters each.',
};
const THEME_LABELS: Record<string, string> = {
  '--apartment-active-fill': 'Available: fill',
  '--apartment-active-stroke': 'Available: outline',
  '--apartment-booked-fill': 'Reserved: fill',
  '--apartment-booked-stroke': 'Reserved: outline',
  '--apartment-sold-fill': 'Sold: fill',
  '--apartment-sold-stroke': 'Sold: outline',
  '--apartment-hidden-fill': 'Hidden: fill',
  '--apartment-hidden-stroke': 'Hidden: outline',
};
const themeLabel = (name: string) =>
  THEME_LABELS[name] ??
  name
    .replace(/^--/, '')
    .replace(/-/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());
const DONE: Record<string, string> = {
  created: 'The navigator is created. Add its frames below.',
  saved: 'The navigator is saved.',
  'frame-added': 'The frame is added.',
  'frame-saved': 'The frame is saved.',
  'frame-deleted': 'The frame is deleted, with its shapes.',
};
/** Status colours the preview shows, in the page's order. */
const STATUSES = [
  ['Available', 'active'],
  ['Reserved', 'booked'],
  ['Sold', 'sold'],
  ['Hidden', 'hidden'],
] as const;
/** An image of at most 20 MB (the API's upload limit), with the form's other fields around it. */
const UPLOAD_LIMIT = 20 * 1024 * 1024;

type Values = Record<string, string>;

const flat = (list: Navigator[]): Navigator[] => list.flatMap((n) => [n, ...flat(n.nested)]);

/** `#rrggbb` for a colour input (which takes nothing else), or undefined when the colour has another form. */
const hexOf = (value: string | undefined) => (value && /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : undefined);

function NavigatorsList(props: { ctx: OrgContext; estates: Estate[]; estate: Estate | undefined; navigators: Navigator[]; errors: Errors; values: Values }) {
  const { ctx, estate, errors } = props;
  return (
    <Shell ctx={ctx} title="Navigators" current="navigators">
      {props.estates.length > 1 ? (
        <form method="get" action={`${ctx.base}/navigators`} class="filters">
          <Select name="estateId" label="Estate" options={props.estates.map((e): [string, string] => [e.id, e.name])} value={estate?.id} />
          <button type="submit" class="secondary">
            Show
          </button>
        </form>
      ) : null}
      {!estate ? (
        <p>
          No estates yet. <a href={`${ctx.base}/estates`}>Create an estate</a> first.
        </p>
      ) : (
        <>
          <h2>Navigators of {estate.name}</h2>
          {props.navigators.length === 0 ? (
            <p>None yet.</p>
          ) : (
            <ul class="plain">
              {props.navigators.map((n) => (
                <li key={n.id}>
                  <a href={`${ctx.base}/navigators/${n.id}`}>{n.options.navigatorName || n.seoTitle || n.id}</a> ({n.images.length} frames
                  {n.parentId ? ', nested for a building' : ''})
                </li>
              ))}
            </ul>
          )}
          {hasRole(ctx, 'editor') ? (
            <>
              <h2>Create a navigator</h2>
              <ErrorSummary errors={errors} labels={{ name: 'Name', buildingId: 'Building' }} />
              <PostForm action={`${ctx.base}/navigators?estateId=${estate.id}`} csrf={ctx.session.csrf} label="Create a navigator">
                <Field name="name" label="Name" value={props.values.name} errors={errors} maxLength={200} />
                {props.navigators.length > 0 ? (
                  <Select
                    name="buildingId"
                    label="Building"
                    options={estate.buildings.map((b): [string, string] => [b.id, b.name])}
                    value={props.values.buildingId}
                    errors={errors}
                  />
                ) : null}
                <p class="hint">
                  {props.navigators.length === 0 ? 'The estate’s first navigator.' : 'Nested in the estate’s navigator: the view of one building.'}
                </p>
                <button type="submit">Create navigator</button>
              </PostForm>
            </>
          ) : null}
        </>
      )}
    </Shell>
  );
}

function ThemePreview(props: { theme: Record<string, string | undefined> }) {
  const t = props.theme;
  return (
    <figure>
      <svg role="img" aria-labelledby="theme-preview-title" viewBox="0 0 400 90" width="400" height="90" class="theme-preview">
        <title id="theme-preview-title">Preview of the status colours</title>
        <rect x="0" y="0" width="400" height="90" fill={t['--background'] ?? '#ffffff'} />
        {STATUSES.map(([label, key], i) => (
          <g key={key}>
            <rect
              x={10 + i * 97}
              y="10"
              width="87"
              height="45"
              fill={t[`--apartment-${key}-fill`] ?? 'transparent'}
              stroke={t[`--apartment-${key}-stroke`] ?? '#000000'}
              stroke-width="3"
            />
            <text x={53 + i * 97} y="76" text-anchor="middle" font-size="14" fill={t['--foreground'] ?? '#000000'}>
              {label}
            </text>
          </g>
        ))}
      </svg>
      <figcaption class="muted">How the page outlines homes of each status with this theme (before you save, after a save shows the saved colours).</figcaption>
    </figure>
  );
}

function NavigatorEditor(props: {
  ctx: OrgContext;
  navigator: Navigator;
  etag: string;
  estate: Estate;
  assets: Asset[];
  errors: Errors;
  values: Values;
  problem?: string | undefined;
  done?: string | undefined;
}) {
  const { ctx, navigator, errors, values } = props;
  const here = `${ctx.base}/navigators/${navigator.id}`;
  const csrf = ctx.session.csrf;
  const editor = hasRole(ctx, 'editor');
  const o = navigator.options;
  const theme = o.customTheme as Record<string, string | undefined>;
  const val = (k: string, fallback: string) => values[k] ?? fallback;
  const images = props.assets.filter((a) => a.mimeType.startsWith('image/') && a.width);
  return (
    <Shell ctx={ctx} title={`Navigator ${o.navigatorName || navigator.seoTitle || ''}`} current="navigators">
      <p>
        <a href={`${ctx.base}/navigators?estateId=${props.estate.id}`}>Navigators of {props.estate.name}</a>
      </p>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <Problem text={props.problem} />
      <ErrorSummary errors={errors} labels={FIELD_LABELS} />
      <h2>Frames</h2>
      <p class="muted">One image for each angle the visitor can turn to; shown in order of angle. Change a frame’s angle to move it.</p>
      {navigator.images.length === 0 ? (
        <p>No frames yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Frames by angle</caption>
            <thead>
              <tr>
                <th scope="col">Image</th>
                <th scope="col">Frame</th>
                <th scope="col">Angle and image</th>
                <th scope="col">Shapes</th>
                <th scope="col">Delete</th>
              </tr>
            </thead>
            <tbody>
              {navigator.images.map((f) => (
                <tr key={f.id}>
                  <td>
                    <img src={f.imageUrl} alt={`Frame ${f.name}`} width="120" height={Math.round((120 * (f.asset.height ?? 1)) / (f.asset.width ?? 1))} />
                  </td>
                  <th scope="row">{f.name}</th>
                  <td>
                    {editor ? (
                      <PostForm action={`${here}/frames/${f.id}`} csrf={csrf} class="inline">
                        <label for={`field-angle-${f.id}`}>Angle of {f.name} (°)</label>{' '}
                        {errors[`angle-${f.id}`] ? (
                          <span class="error-message" id={`field-angle-${f.id}-error`}>
                            <span class="visually-hidden">Error: </span>
                            {errors[`angle-${f.id}`]}
                          </span>
                        ) : null}
                        <input
                          id={`field-angle-${f.id}`}
                          name="angle"
                          inputMode="decimal"
                          size={6}
                          value={val(`angle-${f.id}`, String(f.angle))}
                          aria-describedby={errors[`angle-${f.id}`] ? `field-angle-${f.id}-error` : undefined}
                          aria-invalid={errors[`angle-${f.id}`] ? 'true' : undefined}
                        />{' '}
                        <label for={`asset-${f.id}`}>Image of {f.name}</label>{' '}
                        <select id={`asset-${f.id}`} name="assetId">
                          {images.map((a) => (
                            <option key={a.id} value={a.id} selected={a.id === f.assetId}>
                              {a.name}
                            </option>
                          ))}
                        </select>{' '}
                        <button type="submit" class="secondary">
                          Save<span class="visually-hidden"> frame {f.name}</span>
                        </button>
                      </PostForm>
                    ) : (
                      `${f.angle}°`
                    )}
                  </td>
                  <td>
                    <a href={`${ctx.base}/navigators/${navigator.id}/frames/${f.id}/shapes`}>
                      Edit shapes<span class="visually-hidden"> of frame {f.name}</span>
                    </a>{' '}
                    ({f.shapes.length})
                  </td>
                  <td>
                    {editor ? (
                      <PostForm action={`${here}/frames/${f.id}/delete`} csrf={csrf} class="inline">
                        <button type="submit" class="danger">
                          Delete<span class="visually-hidden"> frame {f.name}</span>
                        </button>
                      </PostForm>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editor ? (
        <>
          <h3>Add a frame from an uploaded image</h3>
          {images.length === 0 ? (
            <p class="muted">No uploaded images yet; upload one below.</p>
          ) : (
            <PostForm action={`${here}/frames`} csrf={csrf} label="Add a frame from an uploaded image">
              <Select name="assetId" label="Image" options={images.map((a): [string, string] => [a.id, a.name])} value={values.assetId} errors={errors} />
              <Field name="angle" label="Angle (°)" hint="0 to under 360; one frame per angle." inputMode="decimal" value={values.angle} errors={errors} />
              <button type="submit">Add frame</button>
            </PostForm>
          )}
          <h3>Upload an image as a new frame</h3>
          <form method="post" action={`${here}/frames/upload`} enctype="multipart/form-data" aria-label="Upload an image as a new frame" novalidate>
            <input type="hidden" name="_csrf" value={csrf} />
            <Field name="uploadAngle" label="Angle of the new frame (°)" inputMode="decimal" value={values.uploadAngle} errors={errors} />
            <div class={errors.file ? 'field field-error' : 'field'}>
              <label for="field-file">Image file (JPEG, PNG or WebP, at most 20 MB)</label>
              <FieldError id="field-file" error={errors.file} />
              <input id="field-file" type="file" name="file" accept="image/*" aria-describedby={errors.file ? 'field-file-error' : undefined} />
            </div>
            <button type="submit">Upload frame</button>
          </form>
        </>
      ) : null}
      <h2>Name and options</h2>
      <PostForm action={`${here}/options`} csrf={csrf} label="Navigator options">
        <input type="hidden" name="etag" value={props.etag} />
        <Field name="navigatorName" label="Name" hint="Shown to visitors; also the page title." value={val('navigatorName', o.navigatorName)} errors={errors} />
        {NUMBER_OPTIONS.map((k) => (
          <Field key={k} name={k} label={NUMBER_HELP[k][0]} hint={NUMBER_HELP[k][1]} inputMode="decimal" value={val(k, String(o[k] ?? ''))} errors={errors} />
        ))}
        <Field
          name="hideFilters"
          label="Hidden list filters"
          hint="Filters of the apartment list the viewer hides, separated by commas."
          value={val('hideFilters', (o.hideFilters ?? []).join(', '))}
          errors={errors}
        />
        <Field
          name="hideColumns"
          label="Hidden list columns"
          hint="Columns of the apartment list the viewer hides, separated by commas."
          value={val('hideColumns', (o.hideColumns ?? []).join(', '))}
          errors={errors}
        />
        <fieldset>
          <legend>Viewer behaviour</legend>
          {BOOLEAN_OPTIONS.map((k) => (
            <div class="field" key={k}>
              <input type="checkbox" id={`field-${k}`} name={k} value="true" checked={values[k] !== undefined ? values[k] === 'true' : o[k] === true} />{' '}
              <label for={`field-${k}`}>{BOOLEAN_HELP[k]}</label>
            </div>
          ))}
        </fieldset>
        {editor ? <button type="submit">Save options</button> : null}
      </PostForm>
      <h2>Theme</h2>
      <ThemePreview theme={theme} />
      <PostForm action={`${here}/theme`} csrf={csrf} label="Theme">
        <input type="hidden" name="etag" value={props.etag} />
        <Select
          name="fontFamily"
          label="Font family"
          options={[['', 'The page’s default'], ...FONT_FAMILIES.map((f): [string, string] => [f, f])]}
          value={val('fontFamily', theme.fontFamily ?? '')}
          errors={errors}
        />
        <p class="hint">Each colour: pick it, or type any CSS colour (#hex, rgb(), hsl(), a name). The typed text wins when it differs; empty: the default.</p>
        {THEME_VARIABLES.map((name) => {
          const current = val(name, theme[name] ?? '');
          const error = errors[name];
          const id = `theme-${name.slice(2)}`;
          return (
            <div key={name} class={error ? 'field field-error' : 'field'}>
              <label for={id}>{themeLabel(name)}</label>
              <FieldError id={id} error={error} />
              <input
                type="color"
                id={`${id}-picker`}
                name={`${name}:picker`}
                value={hexOf(current) ?? '#000000'}
                aria-label={`${themeLabel(name)}: colour picker`}
              />{' '}
              <input
                id={id}
                name={name}
                value={current}
                size={24}
                maxLength={100}
                aria-describedby={error ? `${id}-error` : undefined}
                aria-invalid={error ? 'true' : undefined}
              />
              <input type="hidden" name={`${name}:was`} value={hexOf(current) ?? '#000000'} />
            </div>
          );
        })}
        {editor ? <button type="submit">Save theme</button> : null}
      </PostForm>
    </Shell>
  );
}

/** The number of a form field, or the text itself (so the schema names it) when it is not one. */
const numberOf = (value: string): number | string => (value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value);

/** Which field a service refusal is about (its message names the option), else the whole form. */
function fieldOfMessage(message: string, candidates: readonly string[]): string {
  return candidates.find((c) => message.includes(c)) ?? 'form';
}

/** Navigators of each estate (issue 35): frames (upload, pick an image, angle, delete), every option, the theme; the shapes screen is linked. */
export async function navigatorScreen(app: FastifyInstance): Promise<void> {
  const { navigators, estates, assets } = app.services;
  const config = { auth: 'none' as const };
  const navigatorOf = async (ctx: OrgContext, request: FastifyRequest) => {
    const id = (request.params as { navigatorId: string }).navigatorId;
    return navigators.get(ctx.org.organizationId, id);
  };
  const renderEditor = async (
    reply: FastifyReply,
    ctx: OrgContext,
    id: string,
    extra: { errors?: Errors; values?: Values; problem?: string; done?: string },
    status = 200,
  ) => {
    const doc = await navigators.get(ctx.org.organizationId, id);
    const [estate, listed] = await Promise.all([
      estates.get(ctx.org.organizationId, doc.estateId),
      assets.list(ctx.org.organizationId, { mimeType: 'image/', limit: 200 }),
    ]);
    return sendHtml(
      reply,
      <NavigatorEditor
        ctx={ctx}
        navigator={doc.value}
        etag={doc.etag}
        estate={estate}
        assets={listed.items}
        errors={extra.errors ?? {}}
        values={extra.values ?? {}}
        problem={extra.problem}
        done={extra.done}
      />,
      status,
    );
  };
  const renderList = async (reply: FastifyReply, ctx: OrgContext, estateId: string | undefined, extra: { errors?: Errors; values?: Values }, status = 200) => {
    const list = (await estates.list(ctx.org.organizationId, { limit: 500 })).items;
    const estate = estateId ? list.find((e) => e.id === estateId.toLowerCase()) : list[0];
    if (estateId && !estate) throw new AppError('notFound', `Estate with id ${estateId} not found`);
    const navs = estate ? flat((await navigators.list(ctx.org.organizationId, estate.id)).value) : [];
    return sendHtml(
      reply,
      <NavigatorsList ctx={ctx} estates={list} estate={estate} navigators={navs} errors={extra.errors ?? {}} values={extra.values ?? {}} />,
      status,
    );
  };
  /** A frame's refusal (angle taken, wrong aspect ratio, size not read yet) next to its field. */
  const frameRefusal = async (reply: FastifyReply, ctx: OrgContext, id: string, err: unknown, angleField: string, values: Values) => {
    const known = refusal(err);
    if (!known || ![404, 409, 422].includes(known.statusCode)) throw err;
    if (known.statusCode === 404 && !/Asset/.test(known.message)) throw err;
    const field = /angle/.test(known.message) || angleField.startsWith('angle-') ? angleField : angleField === 'uploadAngle' ? 'file' : 'assetId';
    const message = /already has a frame at angle/.test(known.message) ? 'Another frame has this angle; choose another.' : plain(known.message);
    return renderEditor(reply, ctx, id, { errors: { [field]: message }, values }, known.statusCode === 404 ? 422 : known.statusCode);
  };
  /**
   * Saves options or the theme through the API's service, with the form's ETag: a stale form is 412 explained,
   * a refusal of the service next to the field its message names (else above the form).
   */
  const save = async (reply: FastifyReply, ctx: OrgContext, id: string, patch: NavigatorPatch, etag: string, values: Values, fields: readonly string[]) => {
    try {
      await asUser(ctx, () => navigators.update(ctx.org.organizationId, id, patch, etag || undefined));
    } catch (err) {
      const known = refusal(err);
      if (known?.statusCode === 412) {
        return renderEditor(reply, ctx, id, { problem: 'Someone changed this navigator since you opened it. Check the values below and save again.' }, 412);
      }
      if (known?.statusCode === 422) {
        const field = fieldOfMessage(known.message, fields);
        const message = plain(known.message);
        return renderEditor(reply, ctx, id, field === 'form' ? { problem: message, values } : { errors: { [field]: message }, values }, 422);
      }
      throw err;
    }
    return seeOther(reply, `${ctx.base}/navigators/${id}?done=saved`);
  };
  const angleOf = (value: string): number | undefined => {
    const n = Number(value.replace(',', '.'));
    return value.trim() !== '' && Number.isFinite(n) && n >= 0 && n < 360 ? n : undefined;
  };
  const ANGLE_MESSAGE = 'Enter an angle from 0 to under 360, such as 90.';

  app.get('/navigators', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'viewer');
    const estateId = (request.query as { estateId?: string }).estateId;
    if (estateId !== undefined && !isUuid(estateId)) throw new AppError('notFound', `Estate with id ${estateId} not found`);
    return renderList(reply, ctx, estateId, {});
  });

  app.post('/navigators', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const estateId = (request.query as { estateId?: string }).estateId ?? '';
    if (!isUuid(estateId)) throw new AppError('notFound', `Estate with id ${estateId} not found`);
    const estate = await estates.get(ctx.org.organizationId, estateId.toLowerCase());
    const form = formOf(request);
    const values = { name: text(form, 'name', 1000).trim(), buildingId: text(form, 'buildingId', 100) };
    if (!values.name) return renderList(reply, ctx, estate.id, { errors: { name: 'Enter a name.' }, values }, 422);
    if (values.name.length > 200) return renderList(reply, ctx, estate.id, { errors: { name: 'The name is at most 200 characters.' }, values }, 422);
    const root = (await navigators.list(ctx.org.organizationId, estate.id)).value[0];
    if (root && !estate.buildings.some((b) => b.id === values.buildingId)) {
      return renderList(reply, ctx, estate.id, { errors: { buildingId: 'Choose the building this navigator shows.' }, values }, 422);
    }
    try {
      const created = await asUser(ctx, () =>
        navigators.create(ctx.org.organizationId, {
          estateId: estate.id,
          name: values.name,
          ...(root ? { parentId: root.id, referenceType: 'building' as const, referenceId: values.buildingId } : {}),
        }),
      );
      return seeOther(reply, `${ctx.base}/navigators/${created.id}?done=created`);
    } catch (err) {
      const known = refusal(err);
      if (known?.statusCode === 409 || known?.statusCode === 422) {
        const message = /nested navigator for this building/.test(known.message) ? 'This building already has its navigator.' : plain(known.message);
        return renderList(reply, ctx, estate.id, { errors: { buildingId: message }, values }, known.statusCode);
      }
      throw err;
    }
  });

  app.get('/navigators/:navigatorId', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'viewer');
    const doc = await navigatorOf(ctx, request);
    return renderEditor(reply, ctx, doc.value.id, { done: (request.query as { done?: string }).done });
  });

  app.post('/navigators/:navigatorId/options', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const doc = await navigatorOf(ctx, request);
    const form = formOf(request);
    const values: Values = {};
    const options: Record<string, unknown> = {};
    const errors: Errors = {};
    const name = text(form, 'navigatorName', 1000).trim();
    values.navigatorName = name;
    if (!name) errors.navigatorName = 'Enter a name.';
    else if (name.length > 200) errors.navigatorName = 'The name is at most 200 characters.';
    else options.navigatorName = name;
    for (const k of NUMBER_OPTIONS) {
      const raw = text(form, k, 50).trim();
      values[k] = raw;
      const n = numberOf(raw);
      if (typeof n !== 'number') errors[k] = `Enter a number for “${NUMBER_HELP[k][0]}”.`;
      else options[k] = n;
    }
    for (const k of ['hideFilters', 'hideColumns'] as const) {
      const raw = text(form, k, 10_000);
      values[k] = raw;
      const names = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (names.length > 100 || names.some((s) => s.length > 100)) errors[k] = 'At most 100 names of at most 100 characters each.';
      else options[k] = names;
    }
    for (const k of BOOLEAN_OPTIONS) {
      values[k] = form.get(k) === 'true' ? 'true' : 'false';
      options[k] = values[k] === 'true';
    }
    // The API's own schema (ranges, limits), each failing option named in the form's words.
    if (Object.keys(errors).length === 0) Object.assign(errors, checkWith(OptionsInput, options, OPTION_MESSAGES));
    if (Object.keys(errors).length > 0) return renderEditor(reply, ctx, doc.value.id, { errors, values }, 422);
    return save(reply, ctx, doc.value.id, { seoTitle: name, options: options as Static<typeof OptionsInput> }, text(form, 'etag', 200), values, [
      ...NUMBER_OPTIONS,
      'hideFilters',
      'hideColumns',
    ]);
  });

  app.post('/navigators/:navigatorId/theme', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const doc = await navigatorOf(ctx, request);
    const form = formOf(request);
    const values: Values = {};
    const theme: Record<string, string | null> = {};
    const errors: Errors = {};
    const font = text(form, 'fontFamily', 50);
    values.fontFamily = font;
    if (font && !(FONT_FAMILIES as readonly string[]).includes(font)) errors.fontFamily = 'Choose a font family from the list.';
    theme.fontFamily = font || null;
    const current = doc.value.options.customTheme as Record<string, string | undefined>;
    for (const name of THEME_VARIABLES) {
      let value = text(form, name, 200).trim();
      // The picker moved and the text did not: the picker's colour (a script-free form sends both).
      const picker = text(form, `${name}:picker`, 20);
      const was = text(form, `${name}:was`, 20);
      if (picker && picker !== was && (value === (current[name] ?? '') || !value)) value = picker;
      values[name] = value;
      if (!value) theme[name] = null;
      else if (!normaliseColour(value)) errors[name] = `“${value}” is not a colour. Use #hex, rgb(), hsl() or a colour name.`;
      else theme[name] = value;
    }
    if (Object.keys(errors).length === 0) {
      const problems = checkWith(OptionsInput, { customTheme: theme }, {});
      if (problems.customTheme) errors.form = 'Check the colours: each is at most 100 characters.';
    }
    if (Object.keys(errors).length > 0) return renderEditor(reply, ctx, doc.value.id, { errors, values }, 422);
    return save(reply, ctx, doc.value.id, { options: { customTheme: theme } as Static<typeof OptionsInput> }, text(form, 'etag', 200), values, THEME_VARIABLES);
  });

  app.post('/navigators/:navigatorId/frames', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const doc = await navigatorOf(ctx, request);
    const form = formOf(request);
    const values = { assetId: text(form, 'assetId', 100), angle: text(form, 'angle', 50) };
    const angle = angleOf(values.angle);
    if (angle === undefined) return renderEditor(reply, ctx, doc.value.id, { errors: { angle: ANGLE_MESSAGE }, values }, 422);
    if (!isUuid(values.assetId)) return renderEditor(reply, ctx, doc.value.id, { errors: { assetId: 'Choose an image.' }, values }, 422);
    try {
      await asUser(ctx, () => navigators.frames.create(ctx.org.organizationId, doc.value.id, { assetId: values.assetId, angle }));
    } catch (err) {
      return frameRefusal(reply, ctx, doc.value.id, err, 'angle', values);
    }
    return seeOther(reply, `${ctx.base}/navigators/${doc.value.id}?done=frame-added`);
  });

  // The image arrives as multipart (its own scope: only this route parses it).
  await app.register(async (scope) => {
    await scope.register(multipart, { attachFieldsToBody: 'keyValues', limits: { fileSize: UPLOAD_LIMIT, files: 1, fields: 5 } });
    scope.post('/navigators/:navigatorId/frames/upload', { schema: { hide: true }, config, bodyLimit: UPLOAD_LIMIT + 64 * 1024 }, async (request, reply) => {
      const ctx = await requireOrg(app, request, 'editor');
      const doc = await navigatorOf(ctx, request);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const values = { uploadAngle: typeof body.uploadAngle === 'string' ? body.uploadAngle.slice(0, 50) : '' };
      const angle = angleOf(values.uploadAngle);
      const file = body.file;
      if (angle === undefined) return renderEditor(reply, ctx, doc.value.id, { errors: { uploadAngle: ANGLE_MESSAGE }, values }, 422);
      if (!Buffer.isBuffer(file) || file.length === 0)
        return renderEditor(reply, ctx, doc.value.id, { errors: { file: 'Choose an image file.' }, values }, 422);
      try {
        await asUser(ctx, async () => {
          const asset = await assets.upload(ctx.org.organizationId, {
            file: Readable.from([file]),
            filename: undefined,
            declaredType: undefined,
            name: `Frame ${angle}°`,
            wasTruncated: () => false,
          });
          assets.created(ctx.org.organizationId, asset);
          try {
            await navigators.frames.create(ctx.org.organizationId, doc.value.id, { assetId: asset.id, angle });
          } catch (err) {
            // A frame that cannot be made keeps no upload behind.
            await assets.delete(ctx.org.organizationId, asset.id).catch(() => undefined);
            throw err;
          }
        });
      } catch (err) {
        const known = refusal(err);
        if (known?.statusCode === 413) return renderEditor(reply, ctx, doc.value.id, { errors: { file: 'The file is larger than 20 MB.' }, values }, 413);
        return frameRefusal(reply, ctx, doc.value.id, err, 'uploadAngle', values);
      }
      return seeOther(reply, `${ctx.base}/navigators/${doc.value.id}?done=frame-added`);
    });
  });

  app.post('/navigators/:navigatorId/frames/:frameId', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const doc = await navigatorOf(ctx, request);
    const frameId = (request.params as { frameId: string }).frameId;
    const frame = doc.value.images.find((f) => f.id === frameId.toLowerCase());
    if (!frame) throw new AppError('notFound', `Frame ${frameId} not found`);
    const form = formOf(request);
    const values = { [`angle-${frame.id}`]: text(form, 'angle', 50) };
    const angle = angleOf(values[`angle-${frame.id}`]!);
    if (angle === undefined) return renderEditor(reply, ctx, doc.value.id, { errors: { [`angle-${frame.id}`]: ANGLE_MESSAGE }, values }, 422);
    const assetId = text(form, 'assetId', 100);
    try {
      await asUser(ctx, () => navigators.frames.update(ctx.org.organizationId, doc.value.id, frame.id, { angle, ...(isUuid(assetId) ? { assetId } : {}) }));
    } catch (err) {
      return frameRefusal(reply, ctx, doc.value.id, err, `angle-${frame.id}`, values);
    }
    return seeOther(reply, `${ctx.base}/navigators/${doc.value.id}?done=frame-saved`);
  });

  app.post('/navigators/:navigatorId/frames/:frameId/delete', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const doc = await navigatorOf(ctx, request);
    await asUser(ctx, () => navigators.frames.delete(ctx.org.organizationId, doc.value.id, (request.params as { frameId: string }).frameId));
    return seeOther(reply, `${ctx.base}/navigators/${doc.value.id}?done=frame-deleted`);
  });
}
