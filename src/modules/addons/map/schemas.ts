import { type Static, Type } from '@sinclair/typebox';
import { Id, LIMITS, Nullable, StringEnum } from '../../../http/schemas.js';
import { AddonAsset, Order, Title } from '../schemas.js';
import { POI_CATEGORIES, TILE_STYLES } from './geo.js';

const Lat = (description: string) => Type.Number({ minimum: -90, maximum: 90, description });
const Lng = (description: string) => Type.Number({ minimum: -180, maximum: 180, description });
const TileStyleSchema = Type.Union(
  TILE_STYLES.map((s) => Type.Literal(s)),
  { description: 'Base map style (complete list)' },
);
const Category = Type.Union(
  POI_CATEGORIES.map((c) => Type.Literal(c)),
  { description: 'Category (complete list)' },
);
const DistanceLabel = () => Nullable(Type.String({ maxLength: LIMITS.shortText, description: 'Replaces the computed distance wording' }));

export const Poi = Type.Object(
  {
    id: Type.String(),
    category: StringEnum(POI_CATEGORIES),
    label: Type.String(),
    lat: Type.Number(),
    lng: Type.Number(),
    customDistanceLabel: Nullable(Type.String()),
    distanceMeters: Nullable(Type.Number({ description: 'Great-circle metres from the map centre; null until a centre is set' })),
    distanceLabel: Nullable(Type.String({ description: '"350 m" / "1.2 km", or customDistanceLabel when set' })),
    order: Type.Integer(),
  },
  { title: 'Poi' },
);
export type Poi = Static<typeof Poi>;

export const MapDocument = Type.Object(
  {
    enabled: Type.Boolean(),
    centerLat: Nullable(Type.Number()),
    centerLng: Nullable(Type.Number()),
    defaultZoom: Nullable(Type.Integer()),
    tileStyle: Nullable(StringEnum(TILE_STYLES)),
    defaultViewLat: Nullable(Type.Number()),
    defaultViewLng: Nullable(Type.Number()),
    logoAssetId: Nullable(Type.String()),
    logoAsset: Nullable(AddonAsset),
    tiles: Nullable(
      Type.Object({
        urlTemplate: Type.String(),
        attribution: Type.String({ description: 'HTML attribution the tile terms require' }),
        maxZoom: Type.Integer(),
      }),
    ),
    pois: Type.Array(Poi),
  },
  { title: 'MapDocument' },
);
export type MapDocument = Static<typeof MapDocument>;

export const PutMapBody = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    centerLat: Type.Optional(Nullable(Lat('Project pin latitude'))),
    centerLng: Type.Optional(Nullable(Lng('Project pin longitude'))),
    defaultZoom: Type.Optional(Type.Integer({ minimum: 0, maximum: 22, description: 'Opening zoom, 0 (world) to 22 (building); default 14' })),
    tileStyle: Type.Optional(TileStyleSchema),
    defaultViewLat: Type.Optional(Nullable(Lat('Opening viewport latitude when it differs from the pin'))),
    defaultViewLng: Type.Optional(Nullable(Lng('Opening viewport longitude when it differs from the pin'))),
    logoAssetId: Type.Optional(Nullable(Id('An image asset of the organization shown as logo overlay'))),
  },
  { additionalProperties: false },
);

export const CreatePoiBody = Type.Object(
  {
    category: Category,
    label: Title('Label'),
    lat: Lat('Latitude'),
    lng: Lng('Longitude'),
    customDistanceLabel: Type.Optional(DistanceLabel()),
    order: Type.Optional(Order()),
  },
  { additionalProperties: false },
);

export const UpdatePoiBody = Type.Object(
  {
    category: Type.Optional(Category),
    label: Type.Optional(Title('Label')),
    lat: Type.Optional(Lat('Latitude')),
    lng: Type.Optional(Lng('Longitude')),
    customDistanceLabel: Type.Optional(DistanceLabel()),
    order: Type.Optional(Order()),
  },
  { additionalProperties: false },
);
