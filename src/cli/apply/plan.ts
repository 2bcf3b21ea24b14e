/**
 * The plan of `estate-publisher apply`: what differs between the project file and the service, as lines
 * a person reads (`+ create`, `~ update field: before -> after`, `- remove`) and as actions that make
 * the service match. Actions run in order; ids the service assigns on the way (a new estate, building,
 * asset or section) are kept in `Ids` for the actions after them. Nothing here decides twice: an action
 * sends exactly what its plan line says, and a second plan over the result is empty.
 */
import { isDeepStrictEqual } from 'node:util';
import { type PublisherClient, must, type operations } from '../../../clients/typescript/src/index.js';
import { sanitizeSectionHtml } from '../../modules/addons/investment/sanitize.js';
import type { Manifest, ManifestApartment } from './manifest.js';
import type { Apartment, CurrentState, LocalAsset } from './state.js';

type UpsertItem = operations['upsertApartments']['requestBody']['content']['application/json']['apartments'][number];
type UpsertBatch = Array<{ item: UpsertItem; assets: string[] | undefined }>;

export interface Change {
  sign: '+' | '~' | '-';
  what: string;
  details: string[];
}

export interface Action {
  /** What it does, printed with ✓ once it succeeded. */
  label: string;
  /** 'unchanged' when a check found nothing to write (an order already right). */
  run(): Promise<undefined | 'unchanged'>;
}

export interface Plan {
  changes: Change[];
  actions: Action[];
  /** Add-on children the service has and the file does not name, left in place without --prune-addons. */
  kept: string[];
}

/** Ids known now or assigned while applying. */
class Ids {
  estate: string | undefined;
  readonly buildings = new Map<string, string>();
  readonly assets = new Map<string, string>();
  estateId(): string {
    if (!this.estate) throw new Error('the estate was not created');
    return this.estate;
  }
  asset(name: string): string {
    const id = this.assets.get(name);
    if (!id) throw new Error(`asset ${name} was not uploaded`);
    return id;
  }
}

const MAX_SHOWN = 70;
export function show(value: unknown): string {
  const text = value === undefined ? 'absent' : JSON.stringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** Equal as JSON values: absent is null, and -0 is 0 (the service stores what JSON carries). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));
const same = (a: unknown, b: unknown) => isDeepStrictEqual(asJson(a), asJson(b));

/** `field: before -> after` for each declared field that differs; `declared` leaves out what the file does not set. */
function fieldChanges(declared: Record<string, unknown>, current: Record<string, unknown>): { details: string[]; changed: Record<string, unknown> } {
  const details: string[] = [];
  const changed: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(declared)) {
    if (value === undefined || same(value, current[field])) continue;
    details.push(`${field}: ${show(current[field])} -> ${show(value)}`);
    changed[field] = value;
  }
  return { details, changed };
}

/** Pairs declared children with the service's by key (first unused match); the rest of the service's are extras. */
function match<S, D>(current: readonly S[], declared: readonly D[], keyOf: (s: S) => string, keyWanted: (d: D) => string | undefined) {
  const pool = new Map<string, S[]>();
  for (const s of current) pool.set(keyOf(s), [...(pool.get(keyOf(s)) ?? []), s]);
  const pairs = declared.map((d) => {
    const key = keyWanted(d);
    const found = key === undefined ? undefined : pool.get(key)?.shift();
    return { declared: d, current: found };
  });
  const used = new Set<S>(pairs.flatMap((p) => (p.current === undefined ? [] : [p.current])));
  return { pairs, extras: current.filter((s) => !used.has(s)) };
}

interface Counted {
  create: number;
  update: number;
  remove: number;
}

export function countChanges(changes: readonly Change[]): Counted {
  return {
    create: changes.filter((c) => c.sign === '+').length,
    update: changes.filter((c) => c.sign === '~').length,
    remove: changes.filter((c) => c.sign === '-').length,
  };
}

export interface PlanOptions {
  pruneAddons: boolean;
}

export function planApply(client: PublisherClient, manifest: Manifest, state: CurrentState, local: Map<string, LocalAsset>, options: PlanOptions): Plan {
  const { api } = client;
  const changes: Change[] = [];
  const actions: Action[] = [];
  const kept: string[] = [];
  const ids = new Ids();
  ids.estate = state.estate?.id;
  const change = (sign: Change['sign'], what: string, details: string[] = []) => changes.push({ sign, what, details });
  const act = (label: string, run: () => Promise<undefined | 'unchanged'> | Promise<void>) =>
    actions.push({ label, run: async () => (await run()) ?? undefined });

  // The estate, by slug.
  const { slug, ...estateFields } = manifest.estate;
  const estateLabel = `estate ${slug}`;
  if (!state.estate) {
    change(
      '+',
      `create ${estateLabel}`,
      Object.entries(estateFields).map(([field, value]) => `${field}: ${show(value)}`),
    );
    act(`create ${estateLabel}`, async () => {
      const created = await must(api.POST('/api/v1/estate', { body: { ...manifest.estate } }));
      ids.estate = created.id;
    });
  } else {
    const { details, changed } = fieldChanges(estateFields, state.estate);
    if (details.length > 0) {
      change('~', `update ${estateLabel}`, details);
      act(`update ${estateLabel}`, async () => {
        await must(api.PATCH('/api/v1/estate/{id}', { params: { path: { id: ids.estateId() } }, body: changed }));
      });
    }
  }

  // Files, by content: one the organization already has is not uploaded again, nor two equal files of the file twice.
  const uploading = new Map<string, string>();
  for (const asset of local.values()) {
    const existing = state.assetsByHash.get(asset.sha256);
    if (existing) {
      ids.assets.set(asset.name, existing.id);
      continue;
    }
    const twin = uploading.get(asset.sha256);
    if (twin !== undefined) {
      act(`use asset ${twin} for ${asset.name} (the same content)`, async () => {
        ids.assets.set(asset.name, ids.asset(twin));
        return 'unchanged';
      });
      continue;
    }
    uploading.set(asset.sha256, asset.name);
    const what = `asset ${asset.name} (${asset.origin}, ${asset.sizeBytes} bytes, sha256 ${asset.sha256.slice(0, 12)})`;
    change('+', `upload ${what}`);
    act(`upload asset ${asset.name}`, async () => {
      const uploaded = await client.upload(asset.source, { fileName: asset.fileName, ...(asset.assetName === undefined ? {} : { name: asset.assetName }) });
      ids.assets.set(asset.name, uploaded.id);
    });
  }
  /** The id a declared asset has now, or undefined while it is still to be uploaded. */
  const assetIdNow = (name: string) => ids.assets.get(name);
  const assetNameOf = (id: string) => [...local.values()].find((a) => ids.assets.get(a.name) === id)?.name ?? `asset ${id}`;

  // Buildings, by name within the estate.
  const currentBuildings = state.estate?.buildings ?? [];
  const buildingByName = new Map(currentBuildings.map((b) => [b.name.toLowerCase(), b]));
  for (const b of currentBuildings) ids.buildings.set(b.name.toLowerCase(), b.id);
  for (const building of manifest.buildings ?? []) {
    const key = building.name.toLowerCase();
    const label = `building ${show(building.name)}`;
    const current = buildingByName.get(key);
    // Matched case-insensitively, as the service's own duplicate check does; a change of case is an update.
    const declared = { name: building.name, description: building.description, features: building.features };
    if (!current) {
      change('+', `create ${label}`);
      act(`create ${label}`, async () => {
        const created = await must(api.POST('/api/v1/building', { body: { estateId: ids.estateId(), ...declared } }));
        ids.buildings.set(key, created.id);
      });
      continue;
    }
    const { details, changed } = fieldChanges(
      { ...declared, features: declared.features?.map(withoutNullDescription) },
      { ...current, features: current.features.map(withoutNullDescription) },
    );
    if (details.length > 0) {
      change('~', `update ${label}`, details);
      act(`update ${label}`, async () => {
        await must(api.PATCH('/api/v1/building/{id}', { params: { path: { id: current.id } }, body: changed }));
      });
    }
  }

  // Apartments, by externalId: created or updated through the upsert, never deleted. Every building's updates
  // (renames, moves) go before any building's creates, so a name an apartment gives up is free for a new one.
  const creates: Array<() => void> = [];
  for (const building of manifest.buildings ?? []) {
    const key = building.name.toLowerCase();
    // Each item's `assets` (names) become assetsIds when the action runs: a file may be uploaded first.
    const updates: UpsertBatch = [];
    const created: UpsertBatch = [];
    for (const apartment of building.apartments ?? []) {
      const current = state.apartments.get(apartment.externalId);
      const label = `apartment ${apartment.externalId}`;
      if (!current) {
        change('+', `create ${label} in building ${show(building.name)}`);
        const { assets, ...fields } = apartment;
        // The file's schema is the API's own definitions; its enums type as string only (TypeBox unions built from lists).
        created.push({ item: fields as UpsertItem, assets });
        continue;
      }
      const { details, changed, assetsChanged } = apartmentChanges(apartment, current, ids.buildings.get(key), assetIdNow, assetNameOf);
      if (details.length > 0) {
        change('~', `update ${label}`, details);
        // `changed` holds declared fields only, each checked by the file's schema (the API's own definitions).
        updates.push({ item: { externalId: apartment.externalId, ...(changed as Partial<UpsertItem>) }, assets: assetsChanged ? apartment.assets : undefined });
      }
    }
    const upsert = (verb: string, items: UpsertBatch) => {
      if (items.length > 0)
        act(`${verb} ${items.length} apartment${items.length === 1 ? '' : 's'} in building ${show(building.name)}`, () =>
          upsertBatch(key, building.name, items),
        );
    };
    upsert('update', updates);
    creates.push(() => upsert('create', created));
  }
  for (const plan of creates) plan();

  async function upsertBatch(key: string, buildingName: string, items: UpsertBatch): Promise<void> {
    const buildingId = ids.buildings.get(key);
    if (!buildingId) throw new Error(`building ${buildingName} was not created`);
    for (let i = 0; i < items.length; i += 5000) {
      const apartments = items
        .slice(i, i + 5000)
        .map(({ item, assets }): UpsertItem => (assets ? { ...item, assetsIds: assets.map((name) => ids.asset(name)) } : item));
      await must(api.POST('/api/v1/apartment/upsert', { body: { buildingId, apartments } }));
    }
  }

  const addons = manifest.addons ?? {};
  const context: AddonContext = { client, ids, state, options, change, act, removals: [], orders: [], kept, assetIdNow, assetNameOf };
  const addon = <T>(declared: T | undefined, plan: (ctx: AddonContext, declared: T) => void) => {
    if (declared === undefined) return;
    plan(context, declared);
    for (const [label, run] of [...context.removals.splice(0), ...context.orders.splice(0)]) act(label, run);
  };
  addon(addons.investment, planInvestment);
  addon(addons.gallery, planGallery);
  addon(addons.map, planMap);
  addon(addons.downloads, planDownloads);
  return { changes, actions, kept };
}

const withoutNullDescription = (f: { name: string; description?: string | null | undefined; type: string }) =>
  f.description === null || f.description === undefined ? { name: f.name, type: f.type } : { name: f.name, description: f.description, type: f.type };

function apartmentChanges(
  apartment: ManifestApartment,
  current: Apartment,
  buildingId: string | undefined,
  assetIdNow: (name: string) => string | undefined,
  assetNameOf: (id: string) => string,
) {
  const { assets, apartmentData, externalId: _, name, ...fields } = apartment;
  const { details, changed } = fieldChanges({ ...fields, name }, current as unknown as Record<string, unknown>);
  if (apartmentData) {
    const data = current.apartmentData as Record<string, unknown>;
    const dataDetails: string[] = [];
    for (const [field, value] of Object.entries(apartmentData)) {
      if (value === undefined || same(value, data[field])) continue;
      dataDetails.push(`apartmentData.${field}: ${show(data[field])} -> ${show(value ?? undefined)}`);
    }
    if (dataDetails.length > 0) {
      details.push(...dataDetails);
      changed.apartmentData = apartmentData;
    }
  }
  let assetsChanged = false;
  if (assets) {
    const wanted = assets.map(assetIdNow);
    if (wanted.some((id) => id === undefined) || !same(wanted, current.assetsIds)) {
      details.push(`assets: ${show(current.assetsIds.map(assetNameOf))} -> ${show(assets)}`);
      assetsChanged = true;
    }
  }
  if (buildingId !== current.buildingId) {
    details.push(`building: ${show(current.building.name)} -> moved to this building`);
    changed.name = name;
  }
  return { details, changed, assetsChanged };
}

interface AddonContext {
  client: PublisherClient;
  ids: Ids;
  state: CurrentState;
  options: PlanOptions;
  change: (sign: Change['sign'], what: string, details?: string[]) => void;
  act: (label: string, run: () => Promise<undefined | 'unchanged'> | Promise<void>) => void;
  /** Removals, run after the add-on's creates, updates and moves (a section goes after its items). */
  removals: Array<[string, () => Promise<void>]>;
  /** Order checks, run last: after the removals, a container holds what its order names. */
  orders: Array<[string, () => Promise<undefined | 'unchanged'>]>;
  kept: string[];
  assetIdNow: (name: string) => string | undefined;
  assetNameOf: (id: string) => string;
}

/** The order a container must end in: the declared children, then those kept without --prune-addons, as they were. */
function orderDiffers(currentIds: readonly string[], declaredIds: ReadonlyArray<string | undefined>): boolean {
  if (declaredIds.some((id) => id === undefined)) return declaredIds.length > 1 || currentIds.length > 0;
  const declared = declaredIds as string[];
  const rest = currentIds.filter((id) => !declared.includes(id));
  return !same([...declared, ...rest], currentIds);
}

/**
 * An ordered container of add-on children: matches, creates, updates, removes (with --prune-addons) and
 * finally puts the children in the declared order when they are not in it already.
 */
interface ContainerSpec<S extends { id: string }, D> {
  /** One child, for + ~ - lines: "investment file". */
  what: string;
  /** The children together, for the order line: "files of investment section \"Costs\"". */
  container: string;
  /** The children may not be where they will be until the actions ran (moves): the order is checked then. */
  unsettled?: boolean;
  current: readonly S[];
  declared: readonly D[];
  keyOf: (s: S) => string;
  keyWanted: (d: D) => string | undefined;
  /** A declared child in the plan ("brochure in section \"Costs\""); `short` names it in the order line. */
  labelOf: (d: D) => string;
  short: (d: D) => string;
  labelOfCurrent: (s: S) => string;
  /** The differing fields of a matched child, and the body that fixes them. */
  diff: (d: D, s: S) => { details: string[]; changed: Record<string, unknown> };
  create: (d: D) => Promise<string>;
  update: (id: string, body: Record<string, unknown>) => Promise<void>;
  remove: (id: string) => Promise<void>;
  /** The children's ids in their order now, read again after the creates. */
  readOrder: () => Promise<string[]>;
  order: (orderedIds: string[]) => Promise<void>;
  /** Plans what goes with a child removed by --prune-addons (a gallery section's items, which would stay ungrouped). */
  beforeRemove?: (s: S) => void;
  /** Runs when the container's own id is known: children of a new section wait for it. */
  after?: (d: D, id: () => string) => void;
}

function planContainer<S extends { id: string }, D>(ctx: AddonContext, spec: ContainerSpec<S, D>): void {
  const { pairs, extras } = match(spec.current, spec.declared, spec.keyOf, spec.keyWanted);
  const assigned = new Map<D, string>();
  let needsOrderCheck = false;
  for (const pair of pairs) {
    const label = spec.labelOf(pair.declared);
    const current = pair.current;
    if (!current) {
      needsOrderCheck = true;
      ctx.change('+', `create ${spec.what} ${label}`);
      ctx.act(`create ${spec.what} ${label}`, async () => {
        assigned.set(pair.declared, await spec.create(pair.declared));
      });
      spec.after?.(pair.declared, () => {
        const id = assigned.get(pair.declared);
        if (!id) throw new Error(`${spec.what} ${label} was not created`);
        return id;
      });
      continue;
    }
    assigned.set(pair.declared, current.id);
    const { details, changed } = spec.diff(pair.declared, current);
    if (details.length > 0) {
      ctx.change('~', `update ${spec.what} ${label}`, details);
      ctx.act(`update ${spec.what} ${label}`, () => spec.update(current.id, changed));
    }
    spec.after?.(pair.declared, () => current.id);
  }
  for (const extra of extras) {
    const label = `${spec.what} ${spec.labelOfCurrent(extra)}`;
    if (!ctx.options.pruneAddons) {
      ctx.kept.push(label);
      continue;
    }
    spec.beforeRemove?.(extra);
    ctx.change('-', `remove ${label}`);
    ctx.removals.push([`remove ${label}`, () => spec.remove(extra.id)]);
  }
  const keptIds = ctx.options.pruneAddons ? [] : extras.map((e) => e.id);
  const declaredNow = pairs.map((p) => p.current?.id);
  const currentIds = spec.current.map((s) => s.id).filter((id) => declaredNow.includes(id) || keptIds.includes(id));
  const predicted = orderDiffers(currentIds, declaredNow) && !(needsOrderCheck && appendsInOrder(currentIds, pairs));
  if (predicted) {
    ctx.change('~', `reorder ${spec.container}`, [`order: ${pairs.map((p) => spec.short(p.declared)).join(', ')}`]);
  }
  if (!predicted && !needsOrderCheck && !spec.unsettled) return;
  ctx.orders.push([
    `order ${spec.container}`,
    async () => {
      const wanted = pairs.map((p) => assigned.get(p.declared) as string);
      const now = await spec.readOrder();
      const target = [...wanted, ...now.filter((id) => !wanted.includes(id))];
      if (same(target, now)) return 'unchanged';
      await spec.order(target);
      return undefined;
    },
  ]);
}

/** New children are appended: the order is already right when every matched one comes first, in order. */
function appendsInOrder(currentIds: readonly string[], pairs: ReadonlyArray<{ current: { id: string } | undefined }>): boolean {
  const firstNew = pairs.findIndex((p) => !p.current);
  if (pairs.slice(firstNew).some((p) => p.current)) return false;
  const matched = pairs.slice(0, firstNew).map((p) => p.current?.id as string);
  return same(matched, currentIds);
}

/** `enabled` of an add-on, true unless the file says false. */
function planEnabled(ctx: AddonContext, name: string, enabled: boolean | undefined, current: boolean | undefined, put: (enabled: boolean) => Promise<void>) {
  const wanted = enabled ?? true;
  if (current === wanted) return;
  ctx.change('~', `update ${name}`, [`enabled: ${show(current ?? false)} -> ${show(wanted)}`]);
  ctx.act(`update ${name}`, () => put(wanted));
}

type Investment = NonNullable<NonNullable<Manifest['addons']>['investment']>;
type Gallery = NonNullable<NonNullable<Manifest['addons']>['gallery']>;
type MapAddon = NonNullable<NonNullable<Manifest['addons']>['map']>;
type Downloads = NonNullable<NonNullable<Manifest['addons']>['downloads']>;

function planInvestment(ctx: AddonContext, investment: Investment): void {
  const { api } = ctx.client;
  const estate = () => ({ estateId: ctx.ids.estateId() });
  const doc = ctx.state.investment;
  const read = () => must(api.GET('/api/v1/estates/{estateId}/investment', { params: { path: estate() } }));
  planEnabled(ctx, 'investment', investment.enabled, doc?.enabled, async (enabled) => {
    await must(api.PUT('/api/v1/estates/{estateId}/investment', { params: { path: estate() }, body: { enabled } }));
  });
  planContainer(ctx, {
    what: 'investment section',
    container: 'investment sections',
    current: doc?.sections ?? [],
    declared: investment.sections ?? [],
    keyOf: (s) => s.title,
    keyWanted: (d) => d.title,
    labelOf: (d) => show(d.title),
    short: (d) => show(d.title),
    labelOfCurrent: (s) => show(s.title),
    diff: (d, s) => fieldChanges({ description: d.description === undefined ? undefined : sanitizeSectionHtml(d.description) }, s),
    create: async (d) =>
      (
        await must(
          api.POST('/api/v1/estates/{estateId}/investment/sections', { params: { path: estate() }, body: { title: d.title, description: d.description } }),
        )
      ).id,
    update: async (id, body) => {
      await must(api.PATCH('/api/v1/estates/{estateId}/investment/sections/{sectionId}', { params: { path: { ...estate(), sectionId: id } }, body }));
    },
    remove: async (id) => {
      await must(api.DELETE('/api/v1/estates/{estateId}/investment/sections/{sectionId}', { params: { path: { ...estate(), sectionId: id } } }));
    },
    readOrder: async () => (await read()).sections.map((s) => s.id),
    order: async (orderedIds) => {
      await must(api.PUT('/api/v1/estates/{estateId}/investment/sections/order', { params: { path: estate() }, body: { orderedIds } }));
    },
    after: (section, sectionId) => {
      const current = doc?.sections.find((s) => s.title === section.title);
      const at = () => ({ ...estate(), sectionId: sectionId() });
      const where = `in section ${show(section.title)}`;
      planContainer(ctx, {
        what: 'investment file',
        container: `files of investment section ${show(section.title)}`,
        current: current?.files ?? [],
        declared: section.files ?? [],
        keyOf: (f) => f.assetId,
        keyWanted: (d) => ctx.assetIdNow(d.asset),
        labelOf: (d) => `${d.asset} ${where}`,
        short: (d) => d.asset,
        labelOfCurrent: (f) => `${show(f.label)} ${where}`,
        diff: (d, f) => fieldChanges({ label: d.label }, f),
        create: async (d) =>
          (
            await must(
              api.POST('/api/v1/estates/{estateId}/investment/sections/{sectionId}/files', {
                params: { path: at() },
                body: { assetId: ctx.ids.asset(d.asset), ...(d.label === undefined ? {} : { label: d.label }) },
              }),
            )
          ).id,
        update: async (fileId, body) => {
          await must(api.PATCH('/api/v1/estates/{estateId}/investment/sections/{sectionId}/files/{fileId}', { params: { path: { ...at(), fileId } }, body }));
        },
        remove: async (fileId) => {
          await must(api.DELETE('/api/v1/estates/{estateId}/investment/sections/{sectionId}/files/{fileId}', { params: { path: { ...at(), fileId } } }));
        },
        readOrder: async () => (await read()).sections.find((s) => s.id === sectionId())?.files.map((f) => f.id) ?? [],
        order: async (orderedIds) => {
          await must(api.PUT('/api/v1/estates/{estateId}/investment/sections/{sectionId}/files/order', { params: { path: at() }, body: { orderedIds } }));
        },
      });
    },
  });
}

/** Marks a gallery item's section as to be set when the action runs (a new section has no id before). */
const MOVE = Symbol('move');

function planGallery(ctx: AddonContext, gallery: Gallery): void {
  const { api } = ctx.client;
  const estate = () => ({ estateId: ctx.ids.estateId() });
  const doc = ctx.state.gallery;
  const read = () => must(api.GET('/api/v1/estates/{estateId}/gallery', { params: { path: estate() } }));
  planEnabled(ctx, 'gallery', gallery.enabled, doc?.enabled, async (enabled) => {
    await must(api.PUT('/api/v1/estates/{estateId}/gallery', { params: { path: estate() }, body: { enabled } }));
  });
  // Items are matched by asset over the whole gallery, so an item that changes section is moved, not made again.
  type Item = NonNullable<Gallery['items']>[number];
  type CurrentItem = NonNullable<typeof doc>['items'][number];
  const { pairs } = match(
    [...(doc?.items ?? []), ...(doc?.sections ?? []).flatMap((s) => s.items)],
    [...(gallery.items ?? []), ...(gallery.sections ?? []).flatMap((s) => s.items ?? [])],
    (i) => i.assetId,
    (d) => ctx.assetIdNow(d.asset),
  );
  const matched = new Map<Item, CurrentItem | undefined>(pairs.map((p) => [p.declared, p.current]));
  const claimed = new Set(pairs.map((p) => p.current).filter((c) => c !== undefined));

  const sectionName = (id: string | null) => (id === null ? 'ungrouped' : `section ${show(doc?.sections.find((s) => s.id === id)?.title)}`);
  const items = (where: string, container: string, declared: readonly Item[], currentHere: readonly CurrentItem[], sectionId: () => string | null) => {
    const mine = new Set(declared.map((d) => matched.get(d)).filter((c) => c !== undefined));
    // What stays here (declared here, or named nowhere) and what moves in from elsewhere.
    const here = currentHere.filter((c) => !claimed.has(c) || mine.has(c));
    const movedIn = [...mine].filter((c) => !currentHere.includes(c));
    planContainer(ctx, {
      what: 'gallery item',
      container,
      unsettled: movedIn.length > 0,
      current: [...here, ...movedIn],
      declared,
      keyOf: (i) => i.id,
      keyWanted: (d) => matched.get(d)?.id,
      labelOf: (d) => `${d.asset} ${where}`,
      short: (d) => d.asset,
      labelOfCurrent: (i) => `${show(i.asset.name)} ${where}`,
      diff: (d, i) => {
        const { details, changed } = fieldChanges({ caption: d.caption }, i);
        if (!movedIn.includes(i)) return { details, changed };
        return { details: [...details, `place: ${sectionName(i.sectionId)} -> ${where.replace(/^in /, '')}`], changed: { ...changed, sectionId: MOVE } };
      },
      create: async (d) =>
        (
          await must(
            api.POST('/api/v1/estates/{estateId}/gallery/items', {
              params: { path: estate() },
              body: { assetId: ctx.ids.asset(d.asset), sectionId: sectionId(), ...(d.caption === undefined ? {} : { caption: d.caption }) },
            }),
          )
        ).id,
      update: async (itemId, changed) => {
        const body = 'sectionId' in changed ? { ...changed, sectionId: sectionId() } : changed;
        await must(api.PATCH('/api/v1/estates/{estateId}/gallery/items/{itemId}', { params: { path: { ...estate(), itemId } }, body }));
      },
      remove: async (itemId) => {
        await must(api.DELETE('/api/v1/estates/{estateId}/gallery/items/{itemId}', { params: { path: { ...estate(), itemId } } }));
      },
      readOrder: async () => {
        const now = await read();
        const id = sectionId();
        return (id === null ? now.items : (now.sections.find((s) => s.id === id)?.items ?? [])).map((i) => i.id);
      },
      order: async (orderedIds) => {
        const id = sectionId();
        if (id === null) await must(api.PUT('/api/v1/estates/{estateId}/gallery/items/order', { params: { path: estate() }, body: { orderedIds } }));
        else
          await must(
            api.PUT('/api/v1/estates/{estateId}/gallery/sections/{sectionId}/items/order', {
              params: { path: { ...estate(), sectionId: id } },
              body: { orderedIds },
            }),
          );
      },
    });
  };

  planContainer(ctx, {
    what: 'gallery section',
    container: 'gallery sections',
    current: doc?.sections ?? [],
    declared: gallery.sections ?? [],
    keyOf: (s) => s.title,
    keyWanted: (d) => d.title,
    labelOf: (d) => show(d.title),
    short: (d) => show(d.title),
    labelOfCurrent: (s) => show(s.title),
    diff: (d, s) => fieldChanges({ description: d.description }, s),
    beforeRemove: (section) => {
      for (const item of section.items.filter((i) => !claimed.has(i))) {
        const label = `gallery item ${show(item.asset.name)} in section ${show(section.title)}`;
        ctx.change('-', `remove ${label}`);
        ctx.removals.push([
          `remove ${label}`,
          async () => {
            await must(api.DELETE('/api/v1/estates/{estateId}/gallery/items/{itemId}', { params: { path: { ...estate(), itemId: item.id } } }));
          },
        ]);
      }
    },
    create: async (d) =>
      (
        await must(
          api.POST('/api/v1/estates/{estateId}/gallery/sections', {
            params: { path: estate() },
            body: { title: d.title, ...(d.description === undefined ? {} : { description: d.description }) },
          }),
        )
      ).id,
    update: async (id, body) => {
      await must(api.PATCH('/api/v1/estates/{estateId}/gallery/sections/{sectionId}', { params: { path: { ...estate(), sectionId: id } }, body }));
    },
    remove: async (id) => {
      await must(api.DELETE('/api/v1/estates/{estateId}/gallery/sections/{sectionId}', { params: { path: { ...estate(), sectionId: id } } }));
    },
    readOrder: async () => (await read()).sections.map((s) => s.id),
    order: async (orderedIds) => {
      await must(api.PUT('/api/v1/estates/{estateId}/gallery/sections/order', { params: { path: estate() }, body: { orderedIds } }));
    },
    after: (section, sectionId) => {
      const current = doc?.sections.find((s) => s.title === section.title);
      items(`in section ${show(section.title)}`, `items of gallery section ${show(section.title)}`, section.items ?? [], current?.items ?? [], sectionId);
    },
  });
  items('ungrouped', 'ungrouped gallery items', gallery.items ?? [], doc?.items ?? [], () => null);
}

function planMap(ctx: AddonContext, map: MapAddon): void {
  const { api } = ctx.client;
  const estate = () => ({ estateId: ctx.ids.estateId() });
  const doc = ctx.state.map;
  const declared: Record<string, unknown> = {
    enabled: map.enabled ?? true,
    centerLat: map.center?.lat,
    centerLng: map.center?.lng,
    defaultZoom: map.defaultZoom,
    tileStyle: map.tileStyle,
    defaultViewLat: map.defaultView?.lat,
    defaultViewLng: map.defaultView?.lng,
  };
  const { details, changed } = fieldChanges(declared, { ...(doc ?? { enabled: false }) });
  let logoChanged = false;
  if (map.logo !== undefined) {
    const logoId = ctx.assetIdNow(map.logo);
    if (logoId === undefined || logoId !== doc?.logoAssetId) {
      details.push(`logo: ${show(doc?.logoAsset?.name ?? null)} -> ${show(map.logo)}`);
      logoChanged = true;
    }
  }
  if (details.length > 0) {
    ctx.change('~', 'update map', details);
    ctx.act('update map', async () => {
      const body = { ...changed, ...(logoChanged && map.logo !== undefined ? { logoAssetId: ctx.ids.asset(map.logo) } : {}) };
      await must(api.PUT('/api/v1/estates/{estateId}/map', { params: { path: estate() }, body }));
    });
  }
  planContainer(ctx, {
    what: 'map point',
    container: 'map points',
    current: doc?.pois ?? [],
    declared: map.pois ?? [],
    keyOf: (p) => p.label,
    keyWanted: (d) => d.label,
    labelOf: (d) => show(d.label),
    short: (d) => show(d.label),
    labelOfCurrent: (p) => show(p.label),
    diff: (d, p) => fieldChanges({ category: d.category, lat: d.lat, lng: d.lng, customDistanceLabel: d.customDistanceLabel }, p),
    create: async (d) => (await must(api.POST('/api/v1/estates/{estateId}/map/pois', { params: { path: estate() }, body: d }))).id,
    update: async (poiId, body) => {
      await must(api.PATCH('/api/v1/estates/{estateId}/map/pois/{poiId}', { params: { path: { ...estate(), poiId } }, body }));
    },
    remove: async (poiId) => {
      await must(api.DELETE('/api/v1/estates/{estateId}/map/pois/{poiId}', { params: { path: { ...estate(), poiId } } }));
    },
    readOrder: async () => (await must(api.GET('/api/v1/estates/{estateId}/map', { params: { path: estate() } }))).pois.map((p) => p.id),
    order: async (orderedIds) => {
      await must(api.PUT('/api/v1/estates/{estateId}/map/pois/order', { params: { path: estate() }, body: { orderedIds } }));
    },
  });
}

function planDownloads(ctx: AddonContext, downloads: Downloads): void {
  const { api } = ctx.client;
  const estate = () => ({ estateId: ctx.ids.estateId() });
  const doc = ctx.state.downloads;
  const read = () => must(api.GET('/api/v1/estates/{estateId}/downloads', { params: { path: estate() } }));
  planEnabled(ctx, 'downloads', downloads.enabled, doc?.enabled, async (enabled) => {
    await must(api.PUT('/api/v1/estates/{estateId}/downloads', { params: { path: estate() }, body: { enabled } }));
  });
  planContainer(ctx, {
    what: 'downloads group',
    container: 'downloads groups',
    current: doc?.groups ?? [],
    declared: downloads.groups ?? [],
    keyOf: (g) => g.title,
    keyWanted: (d) => d.title,
    labelOf: (d) => show(d.title),
    short: (d) => show(d.title),
    labelOfCurrent: (g) => show(g.title),
    diff: () => ({ details: [], changed: {} }),
    create: async (d) => (await must(api.POST('/api/v1/estates/{estateId}/downloads/groups', { params: { path: estate() }, body: { title: d.title } }))).id,
    update: async () => {},
    remove: async (groupId) => {
      await must(api.DELETE('/api/v1/estates/{estateId}/downloads/groups/{groupId}', { params: { path: { ...estate(), groupId } } }));
    },
    readOrder: async () => (await read()).groups.map((g) => g.id),
    order: async (orderedIds) => {
      await must(api.PUT('/api/v1/estates/{estateId}/downloads/groups/order', { params: { path: estate() }, body: { orderedIds } }));
    },
    after: (group, groupId) => {
      const current = doc?.groups.find((g) => g.title === group.title);
      const at = () => ({ ...estate(), groupId: groupId() });
      const where = `in group ${show(group.title)}`;
      planContainer(ctx, {
        what: 'downloads item',
        container: `items of downloads group ${show(group.title)}`,
        current: current?.items ?? [],
        declared: group.items ?? [],
        keyOf: (i) => i.assetId,
        keyWanted: (d) => ctx.assetIdNow(d.asset),
        labelOf: (d) => `${d.asset} ${where}`,
        short: (d) => d.asset,
        labelOfCurrent: (i) => `${show(i.label)} ${where}`,
        diff: (d, i) => fieldChanges({ label: d.label }, i),
        create: async (d) =>
          (
            await must(
              api.POST('/api/v1/estates/{estateId}/downloads/groups/{groupId}/items', {
                params: { path: at() },
                body: { assetId: ctx.ids.asset(d.asset), ...(d.label === undefined ? {} : { label: d.label }) },
              }),
            )
          ).id,
        update: async (itemId, body) => {
          await must(api.PATCH('/api/v1/estates/{estateId}/downloads/groups/{groupId}/items/{itemId}', { params: { path: { ...at(), itemId } }, body }));
        },
        remove: async (itemId) => {
          await must(api.DELETE('/api/v1/estates/{estateId}/downloads/groups/{groupId}/items/{itemId}', { params: { path: { ...at(), itemId } } }));
        },
        readOrder: async () => (await read()).groups.find((g) => g.id === groupId())?.items.map((i) => i.id) ?? [],
        order: async (orderedIds) => {
          await must(api.PUT('/api/v1/estates/{estateId}/downloads/groups/{groupId}/items/order', { params: { path: at() }, body: { orderedIds } }));
        },
      });
    },
  });
}
