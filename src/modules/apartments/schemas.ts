import { type Static, type TNull, type TObject, type TOptional, type TUnion, Type } from '@sinclair/typebox';
import { DateTime, Description, Id, LIMITS, MemberList, Name, Nullable, QueryEnum, StringEnum, changesPage, withIgnored } from '../../http/schemas.js';
import { BuildingInline } from '../buildings/schemas.js';
import { HttpUrl } from '../estates/schemas.js';

export const APARTMENT_STATUSES = ['ACTIVE', 'BOOKED', 'SOLD', 'HIDDEN'] as const;
export const APARTMENT_TYPES = ['RESIDENTIAL', 'COMMERCIAL', 'PARKING', 'STORAGE'] as const;
export const AREA_UNITS = ['m2', 'ft2'] as const;
export const EXPOSURES = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
export const ANGLE_SOURCES = ['auto', 'manual'] as const;

const literalUnion = (values: readonly string[], description?: string, extra: Record<string, unknown> = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { ...(description ? { description } : {}), ...extra },
  );

const Amount = (description: string, example: number) => Type.Number({ minimum: 0, maximum: 1e9, description, examples: [example] });
const Count = (description: string, example: number) => Type.Integer({ minimum: 0, maximum: 10_000, description, examples: [example] });
const Areas = (description: string, example: number[]) =>
  Type.Array(Type.Number({ minimum: 0, maximum: 1e9 }), { maxItems: 50, description, examples: [example] });

/**
 * The fields of apartmentData with their meaning, unit and an example (the spec gives only their types:
 * docs/decisions.md, "Rough edges (issue 38)"). Every field is optional; the service stores what is sent.
 */
const apartmentDataFields = {
  area: Amount('Usable floor area of the apartment, in areaUnit (square metres unless areaUnit is ft2)', 54.5),
  areaUnit: literalUnion(AREA_UNITS, 'Unit of area, terrace(s) and balcony/balconies: m2 (square metres, assumed when absent) or ft2 (square feet)', {
    examples: ['m2'],
  }),
  terrace: Amount('Total terrace area, in areaUnit (an area, not a count; 0 or absent: none)', 12.5),
  terraces: Areas('Area of each terrace, in areaUnit, one number per terrace (their count is the array length)', [8, 4.5]),
  balcony: Amount('Total balcony area, in areaUnit (an area, not a count; 0 or absent: none)', 6.2),
  balconies: Areas('Area of each balcony, in areaUnit, one number per balcony (their count is the array length)', [3.1, 3.1]),
  bedrooms: Count('Number of bedrooms', 2),
  rooms: Count('Number of rooms, bedrooms and living room included, kitchen, bathrooms and hallways not', 3),
  bathrooms: Count('Number of bathrooms', 1),
  floor: Type.Integer({
    minimum: -100,
    maximum: 1000,
    description: 'Storey the apartment is on (its entrance storey): 0 the ground floor, 1 the first above it, negative below ground',
    examples: [3],
  }),
  garage: Count('Number of garage or parking spaces that come with the apartment', 1),
  storage: Count('Number of storage rooms (cellar or locker units) that come with the apartment', 1),
  category: Type.String({ maxLength: LIMITS.shortText, description: 'Your own category or type label, shown as written', examples: ['Penthouse'] }),
  priceAsterisk: Type.String({
    maxLength: LIMITS.shortText,
    description: 'Footnote to the price, shown next to it as written (what the price includes or excludes)',
    examples: ['Parking space not included'],
  }),
  exposures: Type.Array(literalUnion(EXPOSURES), {
    maxItems: 8,
    description: 'Compass directions the windows face: N, NE, E, SE, S, SW, W or NW',
    examples: [['S', 'W']],
  }),
  floorHeight: Type.Number({
    minimum: 0,
    maximum: 1000,
    description: 'Clear ceiling height of the rooms (floor to ceiling), in metres, or in feet when areaUnit is ft2; not a count of storeys',
    examples: [2.7],
  }),
  hasDen: Type.Boolean({ description: 'Whether the apartment has a den: a small extra room not counted in bedrooms', examples: [false] }),
};

type DataFields = typeof apartmentDataFields;

/** apartmentData as sent: every key optional; null removes a key on PATCH (merge semantics). */
export const ApartmentDataInput = Type.Object(
  Object.fromEntries(
    Object.entries(apartmentDataFields).map(([k, s]) => [
      k,
      // The meaning on the property itself (not only inside its anyOf), so the document and the client show it.
      Type.Optional(Type.Union([s, Type.Null()], { description: `${s.description}. null removes it (PATCH)`, examples: s.examples })),
    ]),
  ),
  { additionalProperties: false },
) as unknown as TObject<{ [K in keyof DataFields]: TOptional<TUnion<[DataFields[K], TNull]>> }>;

export const ApartmentDataSchema = Type.Object(
  Object.fromEntries(Object.entries(apartmentDataFields).map(([k, s]) => [k, Type.Optional(s)])),
) as unknown as TObject<{ [K in keyof DataFields]: TOptional<DataFields[K]> }>;

export const PreferredAngle = Type.Object(
  {
    navigatorId: Type.String({ maxLength: 200 }),
    angle: Type.Number({ minimum: -360, maximum: 360 }),
    source: literalUnion(ANGLE_SOURCES, 'auto or manual'),
  },
  { additionalProperties: false },
);

/** Another system's id of the apartment: 1-255 characters, unique in the organization, compared exactly. */
export const ExternalId = (description = 'Your system’s id of the apartment: unique in the organization, compared exactly') =>
  Type.String({ minLength: 1, maxLength: 255, description });

const UrlList = () => Type.Array(HttpUrl(), { maxItems: 100 });

/** The writable fields of an apartment, one definition for every body that sets them (and the apply manifest). */
export const APARTMENT_WRITABLE = {
  isPromoted: Type.Optional(Type.Boolean()),
  description: Type.Optional(Nullable(Description())),
  status: Type.Optional(literalUnion(APARTMENT_STATUSES, 'ACTIVE, BOOKED, SOLD or HIDDEN')),
  floorPlanUrls: Type.Optional(UrlList()),
  floorPlanPreviewUrls: Type.Optional(UrlList()),
  floorPlan3dPreviewUrls: Type.Optional(UrlList()),
  priceCents: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Price in minor currency units' }))),
  isPriceNet: Type.Optional(Type.Boolean()),
  apartmentType: Type.Optional(literalUnion(APARTMENT_TYPES, 'RESIDENTIAL, COMMERCIAL, PARKING or STORAGE')),
  apartmentData: Type.Optional(ApartmentDataInput),
  showPrice: Type.Optional(Type.Boolean()),
  currency: Type.Optional(Nullable(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. USD' }))),
  externalId: Type.Optional(Nullable(ExternalId())),
  lastSynchronizedAt: Type.Optional(Nullable(DateTime())),
  source: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.shortText }))),
  virtualTourUrl: Type.Optional(Nullable(HttpUrl())),
  assetsIds: Type.Optional(
    Type.Array(Type.String({ maxLength: 200 }), { maxItems: 1000, description: 'The complete list of asset ids; each must be an asset of the organization' }),
  ),
  panoramaId: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  preferredAngles: Type.Optional(Type.Array(PreferredAngle, { maxItems: 100 })),
  externalUrl: Type.Optional(Nullable(HttpUrl())),
};

export const APARTMENT_IGNORED = ['id', 'building', 'estateId', 'priceChangeHistory', 'createdAt', 'updatedAt'];

export const CreateApartmentBody = withIgnored(
  { name: Name('Apartment name'), buildingId: Id('Building the apartment is in'), ...APARTMENT_WRITABLE },
  APARTMENT_IGNORED,
);
export const UpdateApartmentBody = withIgnored(
  {
    name: Type.Optional(Name('Apartment name')),
    buildingId: Type.Optional(Id('Moves the apartment to another building of the organization')),
    ...APARTMENT_WRITABLE,
  },
  APARTMENT_IGNORED,
);
export const BulkApartmentItem = withIgnored({ name: Name('Apartment name'), ...APARTMENT_WRITABLE }, APARTMENT_IGNORED);

export const MAX_BULK = 5000;
export const BulkApartmentsBody = Type.Object(
  {
    buildingId: Id('Building every apartment goes into'),
    apartments: Type.Array(BulkApartmentItem, { minItems: 1, maxItems: MAX_BULK }),
  },
  { additionalProperties: false },
);

const { externalId: _externalId, ...APARTMENT_WRITABLEButKey } = APARTMENT_WRITABLE;

export const UpsertApartmentItem = withIgnored(
  {
    externalId: ExternalId('Matches the apartment of the organization with this externalId; a new one is created when none has it'),
    name: Type.Optional(Name('Apartment name (required when the apartment is new)')),
    ...APARTMENT_WRITABLEButKey,
  },
  APARTMENT_IGNORED,
);
export const UpsertApartmentsBody = Type.Object(
  {
    buildingId: Id('Building every named apartment is in after the call (matched ones elsewhere move here)'),
    apartments: Type.Array(UpsertApartmentItem, { minItems: 1, maxItems: MAX_BULK }),
  },
  { additionalProperties: false },
);
export const UPSERT_RESULTS = ['created', 'updated', 'unchanged'] as const;
export const UpsertAnswer = Type.Object({
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  items: Type.Array(
    Type.Object({
      externalId: Type.String(),
      id: Type.String(),
      result: Type.Union(
        UPSERT_RESULTS.map((r) => Type.Literal(r)),
        { description: 'updated: a field other than lastSynchronizedAt changed' },
      ),
    }),
    { description: 'One per item, in request order' },
  ),
});
export type UpsertAnswer = Static<typeof UpsertAnswer>;

export const BulkUpdateItem = withIgnored(
  {
    id: Type.Optional(Id('The apartment to change (or externalId; exactly one of them)')),
    externalId: Type.Optional(ExternalId('The apartment to change, by its externalId (or id; exactly one of them)')),
    name: Type.Optional(Name('Apartment name')),
    buildingId: Type.Optional(Id('Moves the apartment to another building of the organization')),
    ...APARTMENT_WRITABLEButKey,
  },
  APARTMENT_IGNORED.filter((f) => f !== 'id'),
);
// Exactly one of id, externalId per item: the service answers 422 naming the item; the document says it as a oneOf.
(BulkUpdateItem as unknown as Record<string, unknown>)['x-exactly-one'] = ['id', 'externalId'];
export const BulkUpdateBody = Type.Object({ apartments: Type.Array(BulkUpdateItem, { minItems: 1, maxItems: MAX_BULK }) }, { additionalProperties: false });

export const ApartmentSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    isPromoted: Type.Boolean(),
    description: Nullable(Type.String()),
    status: StringEnum(APARTMENT_STATUSES),
    floorPlanUrls: Type.Array(Type.String()),
    floorPlanPreviewUrls: Type.Array(Type.String()),
    floorPlan3dPreviewUrls: Type.Array(Type.String()),
    priceCents: Nullable(Type.Number()),
    isPriceNet: Type.Boolean(),
    apartmentType: StringEnum(APARTMENT_TYPES),
    apartmentData: ApartmentDataSchema,
    buildingId: Type.String(),
    estateId: Type.String(),
    showPrice: Type.Boolean(),
    currency: Nullable(Type.String()),
    building: BuildingInline,
    externalId: Nullable(Type.String()),
    lastSynchronizedAt: Nullable(Type.String({ format: 'date-time' })),
    source: Nullable(Type.String()),
    virtualTourUrl: Nullable(Type.String()),
    assetsIds: Type.Array(Type.String()),
    panoramaId: Nullable(Type.String()),
    preferredAngles: Type.Array(Type.Object({ navigatorId: Type.String(), angle: Type.Number(), source: StringEnum(ANGLE_SOURCES) })),
    externalUrl: Nullable(Type.String()),
    priceChangeHistory: Type.Array(
      Type.Object({ date: Type.String({ format: 'date-time' }), priceCentsBefore: Nullable(Type.Number()), priceCentsAfter: Nullable(Type.Number()) }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Apartment', title: 'Apartment' },
);
export type Apartment = Static<typeof ApartmentSchema>;

export const APARTMENT_SORTS = ['createdAt', '-createdAt', 'updatedAt', '-updatedAt', 'priceCents', '-priceCents', 'name', '-name'] as const;
export type ApartmentSort = (typeof APARTMENT_SORTS)[number];

export const ListApartmentsQuery = Type.Object(
  {
    buildingId: Type.Optional(Type.String({ maxLength: 200 })),
    estateId: Type.Optional(Type.String({ maxLength: 200 })),
    organizationId: Type.Optional(Type.String({ maxLength: 200, description: 'Must be the key’s own organization (403 otherwise)' })),
    status: Type.Optional(MemberList(APARTMENT_STATUSES, 'ACTIVE, BOOKED, SOLD or HIDDEN; several comma-separated match any of them (ACTIVE,BOOKED)')),
    apartmentType: Type.Optional(MemberList(APARTMENT_TYPES, 'RESIDENTIAL, COMMERCIAL, PARKING or STORAGE; several comma-separated match any of them')),
    minPrice: Type.Optional(
      Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'priceCents at least this; apartments without a price are left out' }),
    ),
    maxPrice: Type.Optional(
      Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'priceCents at most this; apartments without a price are left out' }),
    ),
    rooms: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, description: 'apartmentData.rooms equals this' })),
    floor: Type.Optional(Type.Integer({ minimum: -100, maximum: 1000, description: 'apartmentData.floor equals this' })),
    externalId: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'The apartment with this externalId (compared exactly)' })),
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive substring of the name; % and _ are literal' })),
    sort: Type.Optional(
      QueryEnum(
        APARTMENT_SORTS,
        'Order of the list (default createdAt, oldest first); `-` reverses. Ties are broken by id in the same direction; apartments without a price come last either way.',
      ),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: 'Every match when omitted' })),
  },
  { additionalProperties: false },
);

export const ApartmentList = Type.Object({ count: Type.Integer(), items: Type.Array(Type.Ref(ApartmentSchema)) });
export const ApartmentChanges = changesPage(ApartmentSchema);
