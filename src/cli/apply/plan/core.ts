/**
 * What every part of the plan of `estate-publisher apply` shares: the plan's lines and actions, the ids
 * assigned while applying, comparison and matching, and ordered containers of children (add-on sections
 * and items, navigator frames). Each resource plans in its own file of this folder; index.ts puts them
 * in order. Nothing here decides twice: an action sends exactly what its plan line says, and a second
 * plan over the result is empty.
 */
import { isDeepStrictEqual } from 'node:util';
import type { PublisherClient } from '../../../../clients/typescript/src/index.js';
import type { CurrentState } from '../state.js';

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
export class Ids {
  estate: string | undefined;
  readonly buildings = new Map<string, string>();
  readonly assets = new Map<string, string>();
  /** Apartments by externalId: the organization's, and those the upserts create. */
  readonly apartments = new Map<string, string>();
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
export const same = (a: unknown, b: unknown) => isDeepStrictEqual(asJson(a), asJson(b));

/** `field: before -> after` for each declared field that differs; `declared` leaves out what the file does not set. */
export function fieldChanges(declared: Record<string, unknown>, current: Record<string, unknown>): { details: string[]; changed: Record<string, unknown> } {
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
export function match<S, D>(current: readonly S[], declared: readonly D[], keyOf: (s: S) => string, keyWanted: (d: D) => string | undefined) {
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

export interface PlanContext {
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
export interface ContainerSpec<S extends { id: string }, D> {
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

export function planContainer<S extends { id: string }, D>(ctx: PlanContext, spec: ContainerSpec<S, D>): void {
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
export function planEnabled(
  ctx: PlanContext,
  name: string,
  enabled: boolean | undefined,
  current: boolean | undefined,
  put: (enabled: boolean) => Promise<void>,
) {
  const wanted = enabled ?? true;
  if (current === wanted) return;
  ctx.change('~', `update ${name}`, [`enabled: ${show(current ?? false)} -> ${show(wanted)}`]);
  ctx.act(`update ${name}`, () => put(wanted));
}
