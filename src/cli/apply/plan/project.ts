/** The estate (by slug), the declared files (by content), buildings (by name) and apartments (by externalId). */
import { must, type operations } from '../../../../clients/typescript/src/index.js';
import type { Manifest, ManifestApartment } from '../manifest.js';
import type { Apartment, LocalAsset } from '../state.js';
import { type PlanContext, fieldChanges, same, show } from './core.js';

type UpsertItem = operations['upsertApartments']['requestBody']['content']['application/json']['apartments'][number];
type UpsertBatch = Array<{ item: UpsertItem; assets: string[] | undefined }>;

/** Plans the estate, files, buildings and apartments; the ids they get are in ctx.ids for what comes after. */
export function planProject(ctx: PlanContext, manifest: Manifest, local: Map<string, LocalAsset>): void {
  const { client, ids, state, change, act } = ctx;
  const { api } = client;
  ids.estate = state.estate?.id;
  for (const [externalId, apartment] of state.apartments) ids.apartments.set(externalId, apartment.id);

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
  const { assetIdNow, assetNameOf } = ctx;

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
      const answer = await must(api.POST('/api/v1/apartment/upsert', { body: { buildingId, apartments } }));
      // Navigator shapes name apartments by externalId: the new ones' ids are known from here on.
      for (const item of answer.items) ids.apartments.set(item.externalId, item.id);
    }
  }
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
