/**
 * The navigator: the estate's first one (created when the estate has none), the nested ones by building,
 * their fields and options (theme colours compared in the service's spelling), frames by angle, and each
 * frame's shapes, replaced whole when any differs (paths compared normalised, as the service stores them).
 */
import { must } from '../../../../clients/typescript/src/index.js';
import { normalisePath } from '../../../modules/navigators/path.js';
import { SIZE_KEYS } from '../../../modules/navigators/sizes.js';
import { normaliseColour } from '../../../modules/navigators/theme.js';
import type { ManifestFrame, ManifestNavigator, ManifestNested, ManifestShape } from '../manifest-navigator.js';
import type { Manifest } from '../manifest.js';
import type { Navigator } from '../state.js';
import { type PlanContext, fieldChanges, match, same, show } from './core.js';

type Frame = Navigator['images'][number];
type Declared = ManifestNavigator | ManifestNested;

/** A declared theme value as the service stores it (a colour it cannot read stays as written: the PATCH will say why). */
const themeValue = (key: string, value: string | null) => (value === null || key === 'fontFamily' ? value : (normaliseColour(value) ?? value));

/**
 * The options keys that differ from the navigator's, the theme key by key. `sendSizes`: declared sizes
 * are sent even when equal to the navigator's (still its defaults), so that its first frame, about to
 * be created, does not replace them with its image's pixels.
 */
function optionChanges(declared: Declared['options'], current: Navigator['options'] | undefined, sendSizes: boolean) {
  const details: string[] = [];
  const changed: Record<string, unknown> = {};
  const { customTheme, ...rest } = declared ?? {};
  const now = (current ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined || (same(value, now[key]) && !(sendSizes && (SIZE_KEYS as readonly string[]).includes(key)))) continue;
    details.push(`options.${key}: ${show(now[key])} -> ${show(value)}`);
    changed[key] = value;
  }
  const theme: Record<string, unknown> = {};
  const themeNow = (current?.customTheme ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(customTheme ?? {}) as Array<[string, string | null]>) {
    if (value === undefined || same(themeValue(key, value), themeNow[key])) continue;
    details.push(`options.customTheme.${key}: ${show(themeNow[key])} -> ${show(value)}`);
    theme[key] = value;
  }
  if (Object.keys(theme).length > 0) changed.customTheme = theme;
  return { details, changed };
}

export function planNavigator(ctx: PlanContext, manifest: Manifest, declared: ManifestNavigator): void {
  const { api } = ctx.client;
  const root = ctx.state.navigators?.[0];
  let rootId = root?.id;
  const rootIdNow = () => {
    if (!rootId) throw new Error('the estate’s navigator was not created');
    return rootId;
  };
  if (!root) {
    ctx.change('+', 'create the estate’s navigator');
    ctx.act('create the estate’s navigator', async () => {
      const created = await must(api.POST('/api/v1/navigator', { body: { estateId: ctx.ids.estateId(), name: manifest.estate.name } }));
      rootId = created.id;
    });
  }
  planOne(ctx, manifest, 'navigator', declared, root, rootIdNow);

  const buildingId = (name: string) => ctx.ids.buildings.get(name.toLowerCase());
  const { pairs, extras } = match(
    root?.nested ?? [],
    declared.nested ?? [],
    (n) => n.referenceId,
    (d) => buildingId(d.building),
  );
  for (const { declared: nested, current } of pairs) {
    const label = `navigator of building ${show(nested.building)}`;
    let id = current?.id;
    if (!current) {
      ctx.change('+', `create ${label}`);
      ctx.act(`create ${label}`, async () => {
        const referenceId = buildingId(nested.building);
        if (!referenceId) throw new Error(`building ${nested.building} is not in the estate`);
        const body = {
          estateId: ctx.ids.estateId(),
          parentId: rootIdNow(),
          referenceType: 'building' as const,
          referenceId,
          name: nested.name ?? nested.building,
        };
        id = (await must(api.POST('/api/v1/navigator', { body }))).id;
      });
    }
    planOne(ctx, manifest, label, nested, current, () => {
      if (!id) throw new Error(`${label} was not created`);
      return id;
    });
  }
  for (const extra of extras) {
    const label = `navigator ${show(extra.seoTitle)} of building ${extra.referenceId}`;
    if (!ctx.options.pruneAddons) {
      ctx.kept.push(label);
      continue;
    }
    ctx.change('-', `remove ${label}`);
    ctx.removals.push([`remove ${label}`, async () => void (await must(api.DELETE('/api/v1/navigator/{id}', { params: { path: { id: extra.id } } })))]);
  }
}

/** One navigator's fields, options and frames. */
function planOne(ctx: PlanContext, manifest: Manifest, label: string, declared: Declared, current: Navigator | undefined, idNow: () => string): void {
  const { api } = ctx.client;
  const { details, changed } = fieldChanges(
    { seoTitle: declared.seoTitle, seoDescription: declared.seoDescription, seoOgImage: declared.seoOgImage, isPreview: declared.isPreview },
    (current ?? {}) as Record<string, unknown>,
  );
  const firstFrames = (declared.frames?.length ?? 0) > 0 && (current?.images.length ?? 0) === 0;
  const options = optionChanges(declared.options, current?.options, firstFrames);
  if (details.length + options.details.length > 0) {
    ctx.change('~', `update ${label}`, [...details, ...options.details]);
    const body = { ...changed, ...(Object.keys(options.changed).length > 0 ? { options: options.changed } : {}) };
    ctx.act(`update ${label}`, async () => void (await must(api.PATCH('/api/v1/navigator/{id}', { params: { path: { id: idNow() } }, body }))));
  }
  if (declared.frames === undefined) return;
  const overlay = {
    width: declared.options?.overlayWidth ?? current?.options.overlayWidth ?? 1920,
    height: declared.options?.overlayHeight ?? current?.options.overlayHeight ?? 1080,
  };
  const { pairs, extras } = match(
    current?.images ?? [],
    declared.frames,
    (f) => String(f.angle),
    (d) => String(d.angle),
  );
  for (const { declared: frame, current: now } of pairs) {
    const where = `frame at ${frame.angle}° of ${label}`;
    let frameId = now?.id;
    const frameIdNow = () => {
      if (!frameId) throw new Error(`${where} was not created`);
      return frameId;
    };
    const fields = { name: frame.name, isMarketingStop: frame.isMarketingStop, highlightLabel: frame.highlightLabel };
    if (!now) {
      ctx.change('+', `create ${where}`, [`asset: ${frame.asset}`]);
      ctx.act(`create ${where}`, async () => {
        const body = { assetId: ctx.ids.asset(frame.asset), angle: frame.angle, ...definedOnly(fields) };
        frameId = (await must(api.POST('/api/v1/navigator/{id}/images', { params: { path: { id: idNow() } }, body }))).id;
      });
    } else {
      const diff = fieldChanges(fields, now as unknown as Record<string, unknown>);
      const assetNow = ctx.assetIdNow(frame.asset);
      if (assetNow === undefined || assetNow !== now.assetId) diff.details.push(`asset: ${show(ctx.assetNameOf(now.assetId))} -> ${show(frame.asset)}`);
      if (diff.details.length > 0) {
        ctx.change('~', `update ${where}`, diff.details);
        ctx.act(`update ${where}`, async () => {
          const body = { ...diff.changed, ...(assetNow !== now.assetId ? { assetId: ctx.ids.asset(frame.asset) } : {}) };
          await must(api.PATCH('/api/v1/navigator/{id}/images/{imageId}', { params: { path: { id: idNow(), imageId: now.id } }, body }));
        });
      }
    }
    planShapes(ctx, manifest, where, frame, now, overlay, idNow, frameIdNow);
  }
  for (const extra of extras) {
    const what = `frame at ${extra.angle}° of ${label}`;
    if (!ctx.options.pruneAddons) {
      ctx.kept.push(what);
      continue;
    }
    ctx.change('-', `remove ${what}`);
    ctx.removals.push([
      `remove ${what}`,
      async () => void (await must(api.DELETE('/api/v1/navigator/{id}/images/{imageId}', { params: { path: { id: idNow(), imageId: extra.id } } }))),
    ]);
  }
}

const definedOnly = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** The shapes of a frame: one PUT of the whole list when any shape differs from the frame's. */
function planShapes(
  ctx: PlanContext,
  manifest: Manifest,
  where: string,
  frame: ManifestFrame,
  now: Frame | undefined,
  overlay: { width: number; height: number },
  idNow: () => string,
  frameIdNow: () => string,
): void {
  if (frame.shapes === undefined) return;
  const resolve = referenceResolver(ctx, manifest);
  const wanted = (strict: boolean) =>
    frame.shapes!.map((s: ManifestShape) => {
      const parsed = normalisePath(s.path, overlay.width, overlay.height);
      return {
        name: s.name ?? null,
        description: s.description ?? null,
        referenceType: 'apartment' in s ? 'apartment' : 'building',
        referenceId: resolve(s, strict),
        shape: parsed.ok ? parsed.value.path : s.path,
      };
    });
  const current = (now?.shapes ?? []).map(({ name, description, referenceType, referenceId, shape }) => ({
    name,
    description,
    referenceType,
    referenceId,
    shape,
  }));
  if (now && same(wanted(false), current)) return;
  ctx.change('~', `update shapes of ${where}`, [`shapes: ${current.length} -> ${frame.shapes.length}`]);
  ctx.act(`update shapes of ${where}`, async () => {
    const body = wanted(true).map(({ name, description, referenceType, referenceId, shape }, i) => ({
      ...(name === null ? {} : { name }),
      ...(description === null ? {} : { description }),
      referenceType: referenceType as 'apartment' | 'building',
      referenceId: referenceId as string,
      // The path as written: the service normalises it (and says why when it cannot).
      shape: frame.shapes![i]!.path,
    }));
    await must(api(ctx).PUT('/api/v1/navigator/{id}/images/{imageId}/shapes', { params: { path: { id: idNow(), imageId: frameIdNow() } }, body }));
  });
}

const api = (ctx: PlanContext) => ctx.client.api;

/**
 * A shape's apartment by externalId (the organization's, or one the upserts create), else by name among
 * the estate's apartments and the file's; a building by name. `strict` (when the action runs) throws
 * for a reference that names nothing; the plan compares with undefined instead.
 */
function referenceResolver(ctx: PlanContext, manifest: Manifest) {
  const declaredByName = new Map<string, string>();
  for (const b of manifest.buildings ?? []) for (const a of b.apartments ?? []) declaredByName.set(a.name.toLowerCase(), a.externalId);
  return (shape: ManifestShape, strict: boolean): string | undefined => {
    let id: string | undefined;
    if ('building' in shape) id = ctx.ids.buildings.get(shape.building.toLowerCase());
    else {
      const ref = shape.apartment;
      const byDeclaredName = declaredByName.get(ref.toLowerCase());
      id =
        ctx.ids.apartments.get(ref) ??
        (byDeclaredName === undefined ? undefined : ctx.ids.apartments.get(byDeclaredName)) ??
        ctx.state.estateApartments.find((a) => a.name.toLowerCase() === ref.toLowerCase())?.id;
    }
    if (id === undefined && strict) {
      const what = 'building' in shape ? `building named "${shape.building}"` : `apartment with externalId or name "${shape.apartment}"`;
      throw new Error(`the estate has no ${what}`);
    }
    return id;
  };
}
