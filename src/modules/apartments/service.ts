import type { Static } from '@sinclair/typebox';
import { BoundedMap } from '../../bounded-map.js';
import type { Database, Queryable } from '../../db/client.js';
import type { FreshStatistics } from '../../db/fresh-statistics.js';
import { type Caching, ReadCache, followingWrites } from '../../db/read-cache.js';
import { AppError, conflict, notFound, unprocessable } from '../../errors.js';
import { etagOf, requireIfMatch } from '../../http/etag.js';
import type { ChangesQuery } from '../../http/schemas.js';
import { isUuid, newId } from '../../ids.js';
import { requireOwnedAssets } from '../assets/ownership.js';
import { type BuildingRow, buildingsRepository } from '../buildings/repository.js';
import type { Building } from '../buildings/schemas.js';
import { requireBuilding, toBuilding } from '../buildings/service.js';
import { type EventType, changesOf, emitEvent, emitEvents } from '../webhooks/events.js';
import { InStatementEvent, SubscriberHints } from '../webhooks/in-statement.js';
import { MAX_ENDPOINTS } from '../webhooks/schemas.js';
import { APARTMENT_CHANNEL, ApartmentLists } from './lists.js';
import { requireNamesFree } from './name-clash.js';
import { type PlannedPatch, dedupe, mergeData, planPatch } from './patch.js';
import { APARTMENT_DEFAULTS, type ApartmentRecord, type ApartmentRow, type NewApartment, apartmentsRepository as repo } from './repository.js';
import type { Apartment, BulkApartmentsBody, BulkUpdateBody, CreateApartmentBody, UpdateApartmentBody, UpsertAnswer, UpsertApartmentsBody } from './schemas.js';

/** The API shape of a stored apartment: everything but the organization and the feed position, with its building embedded. */
export const toApartment = (
  { organizationId: _, changeXid: __, ...row }: Omit<ApartmentRow, 'changeXid'> & { changeXid?: unknown },
  building: BuildingRow,
): Apartment => ({
  ...row,
  building: toBuilding(building),
});

type ItemInput = Omit<Static<typeof CreateApartmentBody>, 'buildingId'>;

const stripNulls = (data: Record<string, unknown> | undefined) => mergeData({}, data ?? {});
const normalName = (name: string) => name.trim().toLowerCase();

/** 409 when two positions of one call name the same key (a name in one building, an externalId, an apartment). */
function requireDistinct<T>(items: readonly T[], keyOf: (item: T) => string | undefined, clash: (i: number, first: number, item: T) => string): void {
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const key = keyOf(item);
    if (key === undefined) return;
    const first = seen.get(key);
    if (first !== undefined) throw conflict(clash(i, first, item));
    seen.set(key, i);
  });
}

const repeatedExternalId = (i: number, first: number, item: { externalId?: string | null | undefined }) =>
  `apartments[${i}].externalId "${item.externalId}" repeats apartments[${first}].externalId in this request`;

/** The building a bulk create or an upsert writes into, once the assets its items name are known to be the organization's. */
async function batchBuilding(tx: Queryable, organizationId: string, input: { buildingId: string; apartments: Array<{ assetsIds?: string[] | undefined }> }) {
  const building = await requireBuilding(tx, organizationId, input.buildingId);
  await requireOwnedAssets(
    tx,
    organizationId,
    input.apartments.flatMap((a) => a.assetsIds ?? []),
  );
  return building;
}

/**
 * 409 naming the first externalId another apartment of the organization already holds. The unique
 * index decides a race between two calls; this check gives the usual case a message naming the value.
 */
async function requireExternalIdsFree(
  db: Queryable,
  organizationId: string,
  claims: Array<{ externalId: string; self?: string; field: string }>,
): Promise<void> {
  const owners = await repo.externalIdOwners(
    db,
    organizationId,
    claims.map((c) => c.externalId),
  );
  for (const claim of claims) {
    const owner = owners.get(claim.externalId);
    if (owner !== undefined && owner !== claim.self) {
      throw conflict(`${claim.field} "${claim.externalId}" is already the externalId of apartment ${owner} in this organization`);
    }
  }
}

export async function requireApartment(db: Queryable, organizationId: string, id: string, lock = false): Promise<ApartmentRow> {
  const row = isUuid(id) ? await repo.get(db, organizationId, id, lock) : undefined;
  if (!row) throw notFound('Apartment', id);
  return row;
}

export class ApartmentsService {
  /** Apartment documents by organization and id (src/db/read-cache.ts; channel of migrations/0010). */
  readonly documents: ReadCache<{ apartment: Apartment; etag: string }>;

  /** Buildings by organization and id with their row versions (`buildingAt`). */
  private readonly buildingVersions = new BoundedMap<string, { building: Building; version: string }>(10_000);

  /** How many endpoints each organization's creates found subscribed (src/modules/webhooks/in-statement.ts). */
  private readonly subscribers = new SubscriberHints();

  /** GET /apartment answers, kept (src/modules/apartments/lists.ts). */
  readonly lists: ApartmentLists;

  constructor(
    private readonly db: Database,
    caching: Caching,
    /** Told of the rows a bulk write changed, so the planner's numbers follow (src/db/fresh-statistics.ts). */
    private readonly statistics?: FreshStatistics,
  ) {
    this.documents = new ReadCache({
      ...followingWrites(db, caching, false),
      channels: [APARTMENT_CHANNEL],
      // A parsed document holds about twice its JSON.
      weigh: (doc) => JSON.stringify(doc.apartment).length * 2,
    });
    this.lists = new ApartmentLists(db, caching);
  }

  /**
   * A new apartment: the item's fields, the defaults (DECISIONS) for the rest, every field present. One
   * literal, so every apartment has the same shape: spreading the defaults and the item cost a create
   * 10 µs (issue 14); the type makes a column missing here a compile error.
   */
  private newApartment(organizationId: string, building: Pick<BuildingRow, 'id' | 'estateId'>, item: ItemInput): ApartmentRecord {
    const d = APARTMENT_DEFAULTS;
    return {
      id: newId(),
      organizationId,
      buildingId: building.id,
      estateId: building.estateId,
      name: item.name.trim(),
      isPromoted: item.isPromoted ?? d.isPromoted,
      description: item.description ?? null,
      status: item.status ?? d.status,
      floorPlanUrls: item.floorPlanUrls ?? d.floorPlanUrls,
      floorPlanPreviewUrls: item.floorPlanPreviewUrls ?? d.floorPlanPreviewUrls,
      floorPlan3dPreviewUrls: item.floorPlan3dPreviewUrls ?? d.floorPlan3dPreviewUrls,
      priceCents: item.priceCents ?? null,
      isPriceNet: item.isPriceNet ?? d.isPriceNet,
      apartmentType: item.apartmentType ?? d.apartmentType,
      apartmentData: stripNulls(item.apartmentData),
      showPrice: item.showPrice ?? d.showPrice,
      currency: item.currency ?? null,
      externalId: item.externalId ?? null,
      lastSynchronizedAt: item.lastSynchronizedAt ?? null,
      source: item.source ?? null,
      virtualTourUrl: item.virtualTourUrl ?? null,
      assetsIds: dedupe(item.assetsIds ?? []),
      panoramaId: item.panoramaId ?? null,
      preferredAngles: item.preferredAngles ?? d.preferredAngles,
      externalUrl: item.externalUrl ?? null,
      priceChangeHistory: [],
    };
  }

  /**
   * One statement checks the building, inserts, answers the timestamps and the building, and writes
   * the outbox (repository.createWithBuilding): no transaction. The answer is serialized as GET's is. Only assetsIds cost a statement before it: an
   * asset deleted in between leaves an id the apartment keeps, as any asset deletion does (spec).
   */
  async create(organizationId: string, input: Static<typeof CreateApartmentBody>): Promise<Apartment> {
    const buildingId = input.buildingId;
    if (!isUuid(buildingId)) throw notFound('Building', buildingId);
    await requireOwnedAssets(this.db, organizationId, input.assetsIds ?? []);
    // The estate is the building's: the statement sets it. newApartment reads the item's fields by name.
    const apartment = this.newApartment(organizationId, { id: buildingId.toLowerCase(), estateId: '' }, input);
    const event = new InStatementEvent(organizationId, 'apartment.created', this.subscribers.get(organizationId, 'apartment.created'));
    let result = await this.insert(apartment, event);
    // More endpoints subscribe than the hint said: nothing was written; again with room for all of them.
    if (result.outbox.subscribed > event.params.capacity) result = await this.insert(apartment, event.retry());
    if (!result.created) throw notFound('Building', buildingId);
    const { organizationId: _, ...row } = result.created.apartment;
    const building = await this.buildingAt(organizationId, row.buildingId, result.created.buildingVersion);
    return { ...row, estateId: building.estateId, building };
  }

  /**
   * The building a create answers with, as of `version` (its row version in the create's statement):
   * kept from an earlier create while that version stands, so a create reads back no building columns.
   * A building changed since the statement is read as it is now, as a GET would show it.
   */
  private async buildingAt(organizationId: string, id: string, version: string): Promise<Building> {
    const key = `${organizationId}:${id}`;
    const kept = this.buildingVersions.get(key);
    if (kept?.version === version) return kept.building;
    const read = await repo.versionedBuilding(this.db, organizationId, id);
    // Deleted since the statement, and the new apartment with it.
    if (!read) throw notFound('Building', id);
    const building = toBuilding(read.building);
    this.buildingVersions.set(key, { building, version: read.version });
    return building;
  }

  private async insert(apartment: Parameters<typeof repo.createWithBuilding>[1], event: InStatementEvent) {
    const result = await repo.createWithBuilding(this.db, apartment, event).catch((err: unknown) => {
      throw (err as { constraint?: string }).constraint === 'apartments_org_external_id_uq'
        ? conflict(`externalId "${apartment.externalId}" is already the externalId of another apartment in this organization`)
        : err;
    });
    this.subscribers.set(event.params.organizationId, event.params.type, result.outbox.subscribed);
    if (result.outbox.subscribed > event.params.capacity && event.params.capacity >= MAX_ENDPOINTS) {
      throw new Error(`${result.outbox.subscribed} webhook endpoints subscribe, more than the ${MAX_ENDPOINTS} an organization may have`);
    }
    return result;
  }

  /**
   * All or nothing: validation, duplicate names and external ids, and asset ownership are checked
   * before one insert in one transaction. Answers the new ids in request order (they are made here,
   * so the order never depends on what the insert returns).
   */
  async bulkCreate(organizationId: string, input: Static<typeof BulkApartmentsBody>): Promise<{ created: number; ids: string[] }> {
    requireDistinct(
      input.apartments,
      (item) => normalName(item.name),
      (i, first, item) => `apartments[${i}].name "${item.name.trim()}" repeats apartments[${first}].name in this request`,
    );
    requireDistinct(input.apartments, (item) => item.externalId ?? undefined, repeatedExternalId);
    const answer = await this.db.transaction(async (tx) => {
      const building = await batchBuilding(tx, organizationId, input);
      await requireExternalIdsFree(
        tx,
        organizationId,
        input.apartments.flatMap((a, i) => (a.externalId ? [{ externalId: a.externalId, field: `apartments[${i}].externalId` }] : [])),
      );
      const claims = input.apartments.map((item, index) => ({ index, buildingId: building.id, name: item.name }));
      await requireNamesFree(tx, organizationId, claims, []);
      const apartments = input.apartments.map((item) => this.newApartment(organizationId, building, item));
      const rows = await repo.insertMany(tx, apartments);
      await emitEvents(
        tx,
        organizationId,
        rows.map((row) => ({ type: 'apartment.created', data: toApartment(row, building) })),
      );
      return { created: rows.length, ids: apartments.map((a) => a.id) };
    });
    this.statistics?.changed('apartments', answer.created);
    return answer;
  }

  /**
   * The apartment and its building, read by one statement, with its ETag; both reused while nothing
   * changed (src/db/read-cache.ts).
   */
  async get(organizationId: string, id: string): Promise<{ apartment: Apartment; etag: string }> {
    const found = isUuid(id)
      ? await this.documents.read(
          `${organizationId}:${id.toLowerCase()}`,
          async () => {
            const read = await repo.getWithBuilding(this.db, organizationId, id);
            if (!read) return undefined;
            const apartment = toApartment(read.apartment, read.building);
            return { apartment, etag: etagOf(apartment) };
          },
          { scope: organizationId },
        )
      : undefined;
    if (found === undefined) throw notFound('Apartment', id);
    return found;
  }

  /** What GET answers for a stored apartment; its ETag is the hash of this. */
  private async represent(db: Queryable, organizationId: string, row: ApartmentRow): Promise<Apartment> {
    return toApartment(row, (await buildingsRepository.get(db, organizationId, row.buildingId))!);
  }

  /** The apartments with their buildings, read in one query, never one per apartment. */
  private async withBuildings(organizationId: string, rows: ApartmentRow[]): Promise<Apartment[]> {
    const found = await buildingsRepository.listByIds(this.db, organizationId, [...new Set(rows.map((r) => r.buildingId))]);
    const buildings = new Map(found.map((b) => [b.id, b]));
    return rows.map((r) => toApartment(r, buildings.get(r.buildingId)!));
  }

  /** PATCH of one apartment; with `ifMatch`, only while that ETag is current (412 otherwise). */
  async update(organizationId: string, id: string, input: Static<typeof UpdateApartmentBody>, ifMatch?: string): Promise<Apartment> {
    return this.db.transaction(async (tx) => {
      const current = await requireApartment(tx, organizationId, id, true);
      await requireIfMatch(ifMatch, () => this.represent(tx, organizationId, current));
      const { buildingId, ...fields } = input;
      const target =
        buildingId !== undefined && buildingId.toLowerCase() !== current.buildingId ? await requireBuilding(tx, organizationId, buildingId) : undefined;
      const plan = planPatch(current, fields, target, new Date().toISOString());
      await requireOwnedAssets(tx, organizationId, plan.fields.assetsIds ?? []);
      if (plan.fields.externalId)
        await requireExternalIdsFree(tx, organizationId, [{ externalId: plan.fields.externalId, self: current.id, field: 'externalId' }]);
      const row = (await repo.update(tx, organizationId, current.id, plan.fields))!;
      const apartment = await this.represent(tx, organizationId, row);
      await emitEvent(tx, organizationId, 'apartment.updated', apartment, changesOf(current, row));
      return apartment;
    });
  }

  /**
   * POST /apartment/upsert: each item matched by externalId in the organization; created in the
   * building when none has it, otherwise changed with PATCH semantics and moved into the building.
   * Every named apartment gets lastSynchronizedAt (the call's time unless the item sends its own); one
   * whose other fields all stay as they are is only stamped (`unchanged`). All or nothing.
   */
  async upsert(organizationId: string, input: Static<typeof UpsertApartmentsBody>): Promise<UpsertAnswer> {
    const at = new Date().toISOString();
    requireDistinct(input.apartments, (item) => item.externalId, repeatedExternalId);
    const answer = await this.db.transaction(async (tx) => {
      const building = await batchBuilding(tx, organizationId, input);
      const stored = await repo.lockByExternalIds(
        tx,
        organizationId,
        input.apartments.map((a) => a.externalId),
      );
      const byExternalId = new Map(stored.map((r) => [r.externalId!, r]));
      const creates: NewApartment[] = [];
      const updates: PlannedPatch[] = [];
      const stamps: Array<{ id: string; lastSynchronizedAt: string | null }> = [];
      const names: string[] = [];
      const items = input.apartments.map((item, i): UpsertAnswer['items'][number] => {
        const sent = { ...item, lastSynchronizedAt: item.lastSynchronizedAt === undefined ? at : item.lastSynchronizedAt };
        const current = byExternalId.get(item.externalId);
        if (!current) {
          const { name } = sent;
          if (name === undefined) {
            throw unprocessable(
              `Validation failed: apartments[${i}].name is required when the apartment is new (no apartment has externalId "${item.externalId}")`,
            );
          }
          const row = this.newApartment(organizationId, building, { ...sent, name });
          creates.push(row);
          names.push(row.name);
          return { externalId: item.externalId, id: row.id, result: 'created' };
        }
        const plan = planPatch(current, sent, building, at);
        names.push(plan.after.name);
        if (plan.changed) updates.push(plan);
        else stamps.push({ id: current.id, lastSynchronizedAt: plan.after.lastSynchronizedAt });
        return { externalId: item.externalId, id: current.id, result: plan.changed ? 'updated' : 'unchanged' };
      });
      requireDistinct(names, normalName, (i, first, name) => `apartments[${i}].name "${name}" repeats apartments[${first}].name in building ${building.id}`);
      await requireNamesFree(
        tx,
        organizationId,
        names.map((name, index) => ({ index, buildingId: building.id, name })),
        stored.map((r) => r.id),
      );
      // Changes first: an existing apartment may give up the name a new one takes.
      const updated = await repo.updateMany(
        tx,
        organizationId,
        updates.map((u) => u.after),
      );
      await repo.stampSynchronized(tx, organizationId, stamps);
      const created = creates.length > 0 ? await repo.insertMany(tx, creates) : [];
      await this.emitWrites(tx, organizationId, updates, updated, created);
      return { created: creates.length, updated: updates.length, unchanged: stamps.length, items };
    });
    // Stamped rows change too (lastSynchronizedAt): every row the call named.
    this.statistics?.changed('apartments', answer.items.length);
    return answer;
  }

  /**
   * PATCH /apartment/bulk: PATCH semantics per item, each naming its apartment by id or by
   * externalId; one transaction, all or nothing; an apartment no item can find is 404 naming it.
   */
  async bulkUpdate(organizationId: string, input: Static<typeof BulkUpdateBody>): Promise<{ updated: number }> {
    const at = new Date().toISOString();
    input.apartments.forEach((item, i) => {
      if ((item.id === undefined) === (item.externalId === undefined)) {
        throw unprocessable(`Validation failed: apartments[${i}] must name exactly one of id, externalId`);
      }
    });
    const missing = (i: number, item: { id?: string | undefined; externalId?: string | undefined }) =>
      new AppError(
        'notFound',
        item.id !== undefined
          ? `apartments[${i}].id: Apartment with id ${item.id} not found`
          : `apartments[${i}].externalId: no apartment has externalId "${item.externalId}"`,
      );
    const answer = await this.db.transaction(async (tx) => {
      const ids = input.apartments.flatMap((a) => (a.id !== undefined && isUuid(a.id) ? [a.id.toLowerCase()] : []));
      const externalIds = input.apartments.flatMap((a) => (a.externalId !== undefined ? [a.externalId] : []));
      const stored = await repo.lockByKeys(tx, organizationId, ids, externalIds);
      const byId = new Map(stored.map((r) => [r.id, r]));
      const byExternalId = new Map(stored.map((r) => [r.externalId, r]));
      const targets = new Set(input.apartments.flatMap((a) => (a.buildingId !== undefined && isUuid(a.buildingId) ? [a.buildingId.toLowerCase()] : [])));
      const buildings = new Map((await buildingsRepository.listByIds(tx, organizationId, [...targets])).map((b) => [b.id, b]));
      const plans = input.apartments.map((item, i) => {
        const { id, externalId, buildingId, ...fields } = item;
        const current = id !== undefined ? byId.get(id.toLowerCase()) : byExternalId.get(externalId as string);
        if (!current) throw missing(i, item);
        const target = buildingId !== undefined ? buildings.get(buildingId.toLowerCase()) : undefined;
        if (buildingId !== undefined && !target) throw notFound('Building', `${buildingId} (apartments[${i}].buildingId)`);
        return planPatch(current, fields, target, at);
      });
      requireDistinct(
        plans,
        (p) => p.before.id,
        (i, first) => `apartments[${i}] names the same apartment as apartments[${first}]`,
      );
      requireDistinct(
        plans,
        (p) => `${p.after.buildingId} ${normalName(p.after.name)}`,
        (i, first) => `apartments[${i}].name "${plans[i]!.after.name.trim()}" repeats apartments[${first}].name in building ${plans[i]!.after.buildingId}`,
      );
      await requireNamesFree(
        tx,
        organizationId,
        plans.flatMap((p, index) =>
          p.fields.name !== undefined || p.fields.buildingId !== undefined ? [{ index, buildingId: p.after.buildingId, name: p.after.name }] : [],
        ),
        plans.map((p) => p.before.id),
      );
      await requireOwnedAssets(
        tx,
        organizationId,
        plans.flatMap((p) => p.fields.assetsIds ?? []),
      );
      const writes = plans.filter((p) => Object.keys(p.fields).length > 0);
      const updated = await repo.updateMany(
        tx,
        organizationId,
        writes.map((p) => p.after),
      );
      await this.emitWrites(tx, organizationId, writes, updated, []);
      return { updated: writes.length };
    });
    this.statistics?.changed('apartments', answer.updated);
    return answer;
  }

  /**
   * The webhook events of a batch (upsert, bulk PATCH): `apartment.created` per new row and
   * `apartment.updated` per changed row with its `changes`, each apartment as the API shows it, with
   * every building read in one query. With no endpoint listening this costs that building read and the
   * outbox's endpoint lookup (two statements per call, not per apartment).
   */
  private async emitWrites(tx: Queryable, organizationId: string, plans: PlannedPatch[], updated: ApartmentRow[], created: ApartmentRow[]): Promise<void> {
    if (updated.length + created.length === 0) return;
    const before = new Map(plans.map((p) => [p.before.id, p.before]));
    const ids = [...new Set([...updated, ...created].map((r) => r.buildingId))];
    const buildings = new Map((await buildingsRepository.listByIds(tx, organizationId, ids)).map((b) => [b.id, b]));
    const events: Array<{ type: EventType; data: Apartment; changes?: ReturnType<typeof changesOf> }> = [];
    for (const row of updated) {
      const previous = before.get(row.id);
      const changes = previous ? changesOf(previous, row) : undefined;
      if (changes && Object.keys(changes).length === 0) continue;
      events.push({ type: 'apartment.updated', data: toApartment(row, buildings.get(row.buildingId)!), changes });
    }
    for (const row of created) events.push({ type: 'apartment.created', data: toApartment(row, buildings.get(row.buildingId)!) });
    await emitEvents(tx, organizationId, events);
  }

  /** GET /apartment/changes: one page of the organization's change feed (db/change-feed.ts). */
  async changes(organizationId: string, query: Static<typeof ChangesQuery>): Promise<{ items: Apartment[]; nextCursor: string }> {
    const page = await repo.changes(this.db, organizationId, query.cursor, query.limit ?? 500);
    return { items: await this.withBuildings(organizationId, page.rows), nextCursor: page.nextCursor };
  }
}
