import { type Static, Type } from '@sinclair/typebox';
import { Description, Id, LIMITS, Name, Nullable, PageQuery, StringEnum, withIgnored } from '../../http/schemas.js';

export const FEATURE_TYPES = ['parking', 'elevator', 'storage', 'garden', 'playground', 'gym', 'pool', 'security', 'bike_room', 'other'] as const;

export const Feature = Type.Object(
  {
    name: Name('Feature name'),
    description: Type.Optional(Nullable(Description())),
    type: Type.Union(
      FEATURE_TYPES.map((t) => Type.Literal(t)),
      { description: 'Feature kind (complete list)' },
    ),
  },
  { additionalProperties: false },
);
/** A feature as sent and stored (a description may be absent). */
export type FeatureInput = Static<typeof Feature>;

const buildingProperties = {
  id: Type.String(),
  estateId: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  features: Type.Array(Type.Object({ name: Type.String(), description: Nullable(Type.String()), type: StringEnum(FEATURE_TYPES) })),
  source: Nullable(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
};

export const BuildingSchema = Type.Object(buildingProperties, { $id: 'Building', title: 'Building' });
/** The same shape for embedding: fast-json-stringify cannot follow a $ref nested inside another $ref'd schema. */
export const BuildingInline = Type.Object(buildingProperties);

/** The writable fields of a building besides its name and estate (bodies and the apply manifest). */
export const BUILDING_WRITABLE = {
  description: Type.Optional(Nullable(Description())),
  features: Type.Optional(Type.Array(Feature, { maxItems: 100 })),
  source: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.shortText }))),
};

export const BUILDING_IGNORED = ['id', 'createdAt', 'updatedAt'];

export const CreateBuildingBody = withIgnored(
  { name: Name('Building name'), estateId: Id('Estate the building belongs to'), ...BUILDING_WRITABLE },
  BUILDING_IGNORED,
);

export const UpdateBuildingBody = withIgnored(
  { name: Type.Optional(Name('Building name')), estateId: Type.Optional(Id('Must equal the current estate; buildings do not move')), ...BUILDING_WRITABLE },
  BUILDING_IGNORED,
);
export type Building = Static<typeof BuildingSchema>;

export const ListBuildingsQuery = Type.Object(
  {
    estateId: Type.String({ maxLength: 200, description: 'The estate whose buildings are listed (required; 404 when it is not the organization’s)' }),
    offset: PageQuery.offset,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Items to return (default 100, max 1,000)' })),
  },
  { additionalProperties: false },
);
