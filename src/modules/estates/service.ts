import type { Static } from '@sinclair/typebox';
import type { Database, Queryable } from '../../db/client.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { requireIfMatch } from '../../http/etag.js';
import { isUuid, iso, newId } from '../../ids.js';
import { type BuildingRow, buildingsRepository } from '../buildings/repository.js';
import type { Building } from '../buildings/schemas.js';
import { toBuilding } from '../buildings/service.js';
import { toNavigator } from '../navigators/document.js';
import { defaultNavigatorOptions, navigatorsRepository } from '../navigators/repository.js';
import type { Navigator } from '../navigators/schemas.js';
import { type OrganizationRow, organizationsRepository } from '../organizations/repository.js';
import { changesOf, emitEvent } from '../webhooks/events.js';
import { type EstatePatch, type EstateRow, estatesRepository as repo } from './repository.js';
import { type AdminUpdateEstateBody, type CreateEstateBody, DASHBOARD_FIELDS, type Estate, type SetupBody } from './schemas.js';

type EstateInput = Static<typeof CreateEstateBody> & EstatePatch;

/** Lowercase ASCII words joined by hyphens: "Żoliborz Park II" -> "zoliborz-park-ii". */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'l')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || 'estate';
}

/** Reads an estate of the organization or throws the 404 every module uses. */
export async function requireEstate(db: Queryable, organizationId: string, id: string, lock = false): Promise<EstateRow> {
  const row = isUuid(id) ? await (lock ? repo.lock(db, organizationId, id) : repo.get(db, organizationId, id)) : undefined;
  if (!row) throw notFound('Estate', id);
  return row;
}

const isSlugClash = (err: unknown) =>
  (err as { code?: string; constraint?: string }).code === '23505' && (err as { constraint?: string }).constraint === 'estates_slug_uq';

export class EstatesService {
  constructor(private readonly db: Database) {}

  /** The public page's way in: keyless, any organization's estate, only what its URL already says. */
  async bySlug(slug: string): Promise<{ id: string; slug: string; name: string }> {
    const found = await repo.findBySlug(this.db, slug);
    if (!found) throw new AppError('notFound', `Estate with slug ${slug} not found`);
    return found;
  }

  private async toEstate(db: Queryable, row: EstateRow, buildings?: BuildingRow[]): Promise<Estate> {
    const org = await organizationsRepository.get(db, row.organizationId);
    const rows = buildings ?? (await buildingsRepository.listByEstates(db, row.organizationId, [row.id]));
    return shapeEstate(row, org!, rows);
  }

  private async freeSlug(db: Queryable, name: string): Promise<string> {
    const base = slugify(name);
    await repo.lockSlugBase(db, base);
    const taken = new Set(await repo.slugsLike(db, base));
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  /** Generated slugs can race another create; the unique index decides and the loser picks again. */
  private async withSlugRetry<T>(explicitSlug: boolean, fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (explicitSlug || attempt >= 4 || !isSlugClash(err)) throw err;
      }
    }
  }

  private checkDashboardFields(input: EstatePatch, current: Partial<Record<(typeof DASHBOARD_FIELDS)[number], unknown>>): void {
    for (const field of DASHBOARD_FIELDS) {
      const sent = input[field];
      if (sent === undefined) continue;
      const now = current[field];
      const same = field === 'manuallyActivatedAt' ? iso(sent as string | null) === (now ?? null) : sent === now;
      if (!same) throw forbidden(`${field} is managed in the dashboard and cannot be changed with an API key`);
    }
  }

  private async insertEstate(tx: Queryable, organizationId: string, input: EstateInput, navigatorId?: string): Promise<EstateRow> {
    const slug = input.slug ?? (await this.freeSlug(tx, input.name));
    return repo.insert(tx, {
      id: newId(),
      organizationId,
      name: input.name.trim(),
      slug,
      description: input.description ?? null,
      photoUrl: input.photoUrl ?? null,
      integrationType: input.integrationType ?? null,
      navigatorId: navigatorId ?? null,
    });
  }

  async create(organizationId: string, input: EstateInput): Promise<Estate> {
    this.checkDashboardFields(input, { isPreview: false, subscriptionStatus: 'DRAFT', manuallyActivatedAt: null, manuallyActivatedById: null });
    return this.withSlugRetry(input.slug !== undefined, () =>
      this.db.transaction(async (tx) => this.toEstate(tx, await this.insertEstate(tx, organizationId, input), [])),
    );
  }

  async setup(organizationId: string, input: Static<typeof SetupBody>): Promise<{ estate: Estate; building: Building; navigator: Navigator }> {
    const { buildingName, ...estateInput } = input;
    return this.withSlugRetry(input.slug !== undefined, () =>
      this.db.transaction(async (tx) => {
        const navigatorId = newId();
        const estateRow = await this.insertEstate(tx, organizationId, estateInput as EstateInput, navigatorId);
        const buildingRow = await buildingsRepository.insert(tx, {
          id: newId(),
          organizationId,
          estateId: estateRow.id,
          name: buildingName?.trim() || 'Building 1',
        });
        const navigatorRow = await navigatorsRepository.insert(tx, {
          id: navigatorId,
          organizationId,
          estateId: estateRow.id,
          parentId: null,
          referenceId: estateRow.id,
          referenceType: 'estate',
          type: 'image',
          seoTitle: estateRow.name,
          options: defaultNavigatorOptions(estateRow.name),
        });
        return {
          estate: await this.toEstate(tx, estateRow, [buildingRow]),
          building: toBuilding(buildingRow),
          navigator: toNavigator(navigatorRow, []),
        };
      }),
    );
  }

  /** A page of estates (newest first) and the window it covers (X-Total-Count and Link). */
  async list(
    organizationId: string,
    query: { organizationId?: string; buildingId?: string; offset?: number; limit?: number },
  ): Promise<{ total: number; offset: number; limit: number; items: Estate[] }> {
    if (query.organizationId !== undefined && query.organizationId.toLowerCase() !== organizationId) {
      throw forbidden('organizationId names another organization; a key only lists its own estates');
    }
    const offset = query.offset ?? 0;
    const limit = query.limit ?? 100;
    if (query.buildingId !== undefined && !isUuid(query.buildingId)) return { total: 0, offset, limit, items: [] };
    // The organization is read beside the page, not after it: one round trip less (the dashboard's screens list estates on every view).
    const [{ total, rows }, org] = await Promise.all([
      repo.list(this.db, organizationId, {
        ...(query.buildingId !== undefined ? { buildingId: query.buildingId } : {}),
        offset,
        limit,
      }),
      organizationsRepository.get(this.db, organizationId),
    ]);
    const buildings = await buildingsRepository.listByEstates(
      this.db,
      organizationId,
      rows.map((r) => r.id),
    );
    const items = rows.map((row) =>
      shapeEstate(
        row,
        org!,
        buildings.filter((b) => b.estateId === row.id),
      ),
    );
    return { total, offset, limit, items };
  }

  async get(organizationId: string, id: string): Promise<Estate> {
    return this.toEstate(this.db, await requireEstate(this.db, organizationId, id));
  }

  /** PATCH of one estate; with `ifMatch`, only while that ETag is current (412 otherwise). */
  async update(organizationId: string, id: string, input: Partial<EstateInput>, ifMatch?: string): Promise<Estate> {
    return this.db.transaction(async (tx) => {
      const current = await requireEstate(tx, organizationId, id, true);
      await requireIfMatch(ifMatch, () => this.toEstate(tx, current));
      this.checkDashboardFields(input, {
        isPreview: current.isPreview,
        subscriptionStatus: current.subscriptionStatus,
        manuallyActivatedAt: current.manuallyActivatedAt,
        manuallyActivatedById: current.manuallyActivatedById,
      });
      const { isPreview, subscriptionStatus, manuallyActivatedAt, manuallyActivatedById, ...writable } = input;
      const fields: EstatePatch = { ...writable };
      if (fields.name !== undefined) fields.name = fields.name.trim();
      const row = await repo.update(tx, organizationId, id, fields);
      const estate = await this.toEstate(tx, row!);
      await emitEvent(tx, organizationId, 'estate.updated', estate, changesOf(current, row!));
      return estate;
    });
  }

  async adminUpdate(id: string, input: Static<typeof AdminUpdateEstateBody>): Promise<Estate> {
    if (!isUuid(id)) throw notFound('Estate', id);
    const row = await repo.updateAnyOrganization(this.db, id, input);
    if (!row) throw notFound('Estate', id);
    return this.toEstate(this.db, row);
  }
}

/** The API shape of a stored estate: its organization and buildings embedded. */
function shapeEstate(row: EstateRow, org: OrganizationRow, buildings: BuildingRow[]): Estate {
  return { ...row, organization: { id: org.id, name: org.name, featureFlags: org.featureFlags }, buildings: buildings.map(toBuilding) };
}
