/**
 * The project file of `estate-publisher apply`: one estate, its buildings and apartments, the files
 * they use, its navigator and the four add-ons. Every field reuses the definition of the API body that sets it, so
 * the file accepts what the API accepts; the JSON Schema editors complete it with is generated from
 * these definitions (`estate-publisher schema`, examples/project.schema.json).
 */
import { type Static, Type } from '@sinclair/typebox';
import { CreateDownloadsGroup, CreateDownloadsItem } from '../../modules/addons/downloads/schemas.js';
import { CreateGalleryItem, CreateGallerySection } from '../../modules/addons/gallery/schemas.js';
import { CreateInvestmentFile, CreateInvestmentSection } from '../../modules/addons/investment/schemas.js';
import { CreatePoiBody, PutMapBody } from '../../modules/addons/map/schemas.js';
import { APARTMENT_WRITABLE, CreateApartmentBody, ExternalId } from '../../modules/apartments/schemas.js';
import { BUILDING_WRITABLE, CreateBuildingBody } from '../../modules/buildings/schemas.js';
import { CreateEstateBody, ESTATE_WRITABLE } from '../../modules/estates/schemas.js';
import { ManifestNavigator } from './manifest-navigator.js';

/** The name of an entry of `assets`, by which apartments and add-ons use the file. */
const ASSET_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]*$';
const AssetRef = (description: string) => Type.String({ pattern: ASSET_NAME_PATTERN, maxLength: 100, description });

const closed = { additionalProperties: false } as const;

export const ManifestAsset = Type.Union(
  [
    Type.Object(
      {
        path: Type.String({ minLength: 1, maxLength: 4096, description: 'A local file, relative to the project file' }),
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Asset name when uploaded (default: the file name)' })),
      },
      closed,
    ),
    Type.Object(
      {
        url: Type.String({
          maxLength: 2048,
          pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$',
          description: 'An http(s) URL the publisher downloads and uploads (at most 100 MB)',
        }),
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Asset name when uploaded (default: the URL’s file name)' })),
      },
      closed,
    ),
  ],
  { description: 'A file: `path` (local) or `url`. Matched with the organization’s assets by content (SHA-256): an unchanged file is not uploaded again' },
);

const a = APARTMENT_WRITABLE;
export const ManifestApartment = Type.Object(
  {
    externalId: ExternalId('Identifies the apartment: matched with the organization’s apartment of this externalId, created when none has it'),
    name: CreateApartmentBody.properties.name,
    status: a.status,
    priceCents: a.priceCents,
    currency: a.currency,
    showPrice: a.showPrice,
    isPriceNet: a.isPriceNet,
    isPromoted: a.isPromoted,
    apartmentType: a.apartmentType,
    apartmentData: a.apartmentData,
    description: a.description,
    floorPlanUrls: a.floorPlanUrls,
    floorPlanPreviewUrls: a.floorPlanPreviewUrls,
    floorPlan3dPreviewUrls: a.floorPlan3dPreviewUrls,
    virtualTourUrl: a.virtualTourUrl,
    externalUrl: a.externalUrl,
    source: a.source,
    assets: Type.Optional(Type.Array(AssetRef('An entry of `assets`'), { maxItems: 1000, description: 'The apartment’s files, in order (its assetsIds)' })),
  },
  { ...closed, description: 'A field left out is left as it is on the service' },
);

export const ManifestBuilding = Type.Object(
  {
    name: CreateBuildingBody.properties.name,
    description: BUILDING_WRITABLE.description,
    features: BUILDING_WRITABLE.features,
    apartments: Type.Optional(Type.Array(ManifestApartment, { maxItems: 20_000 })),
  },
  closed,
);

const e = ESTATE_WRITABLE;
export const ManifestEstate = Type.Object(
  {
    slug: Type.Required(Type.Object({ slug: e.slug })).properties.slug,
    name: CreateEstateBody.properties.name,
    description: e.description,
    photoUrl: e.photoUrl,
    integrationType: e.integrationType,
  },
  closed,
);

const Enabled = Type.Optional(Type.Boolean({ description: 'Whether the public page shows the add-on (default true)' }));

export const ManifestInvestment = Type.Object(
  {
    enabled: Enabled,
    sections: Type.Optional(
      Type.Array(
        Type.Object(
          {
            title: CreateInvestmentSection.properties.title,
            description: CreateInvestmentSection.properties.description,
            files: Type.Optional(
              Type.Array(Type.Object({ asset: AssetRef('An entry of `assets`'), label: CreateInvestmentFile.properties.label }, closed), { maxItems: 1000 }),
            ),
          },
          { ...closed, description: 'Matched by title' },
        ),
        { maxItems: 1000 },
      ),
    ),
  },
  closed,
);

const GalleryItem = Type.Object(
  { asset: AssetRef('An image or video entry of `assets`; each at most once in the gallery'), caption: CreateGalleryItem.properties.caption },
  closed,
);
export const ManifestGallery = Type.Object(
  {
    enabled: Enabled,
    sections: Type.Optional(
      Type.Array(
        Type.Object(
          {
            title: CreateGallerySection.properties.title,
            description: CreateGallerySection.properties.description,
            items: Type.Optional(Type.Array(GalleryItem, { maxItems: 1000 })),
          },
          { ...closed, description: 'Matched by title' },
        ),
        { maxItems: 1000 },
      ),
    ),
    items: Type.Optional(Type.Array(GalleryItem, { maxItems: 1000, description: 'Ungrouped items' })),
  },
  closed,
);

const Point = (description: string) =>
  Type.Object({ lat: Type.Number({ minimum: -90, maximum: 90 }), lng: Type.Number({ minimum: -180, maximum: 180 }) }, { ...closed, description });
export const ManifestMap = Type.Object(
  {
    enabled: Enabled,
    center: Type.Optional(Point('The project pin')),
    defaultZoom: PutMapBody.properties.defaultZoom,
    tileStyle: PutMapBody.properties.tileStyle,
    defaultView: Type.Optional(Point('Opening viewport when it differs from the pin')),
    logo: Type.Optional(AssetRef('An image entry of `assets` shown as logo overlay')),
    pois: Type.Optional(
      Type.Array(
        Type.Object(
          {
            label: CreatePoiBody.properties.label,
            category: CreatePoiBody.properties.category,
            lat: CreatePoiBody.properties.lat,
            lng: CreatePoiBody.properties.lng,
            customDistanceLabel: CreatePoiBody.properties.customDistanceLabel,
          },
          { ...closed, description: 'Matched by label' },
        ),
        { maxItems: 1000 },
      ),
    ),
  },
  closed,
);

export const ManifestDownloads = Type.Object(
  {
    enabled: Enabled,
    groups: Type.Optional(
      Type.Array(
        Type.Object(
          {
            title: CreateDownloadsGroup.properties.title,
            items: Type.Optional(
              Type.Array(Type.Object({ asset: AssetRef('An entry of `assets`'), label: CreateDownloadsItem.properties.label }, closed), { maxItems: 1000 }),
            ),
          },
          { ...closed, description: 'Matched by title' },
        ),
        { maxItems: 1000 },
      ),
    ),
  },
  closed,
);

export const Manifest = Type.Object(
  {
    $schema: Type.Optional(Type.String({ description: 'Where editors find this schema' })),
    estate: ManifestEstate,
    assets: Type.Optional(
      Type.Record(Type.String({ pattern: ASSET_NAME_PATTERN }), ManifestAsset, {
        additionalProperties: false,
        description: 'Files by name (letters, digits, `.`, `_`, `-`), used by that name in apartments and add-ons',
      }),
    ),
    buildings: Type.Optional(Type.Array(ManifestBuilding, { maxItems: 1000, description: 'Matched by name within the estate' })),
    navigator: Type.Optional(ManifestNavigator),
    addons: Type.Optional(
      Type.Object(
        {
          investment: Type.Optional(ManifestInvestment),
          gallery: Type.Optional(ManifestGallery),
          map: Type.Optional(ManifestMap),
          downloads: Type.Optional(ManifestDownloads),
        },
        {
          ...closed,
          description: 'An add-on left out is left as it is; a declared one is made to match, children not declared are removed only with --prune-addons',
        },
      ),
    ),
  },
  { ...closed, title: 'Estate publisher project file', description: 'A project declared for `estate-publisher apply`' },
);
export type Manifest = Static<typeof Manifest>;
export type ManifestApartment = Static<typeof ManifestApartment>;
export type ManifestAsset = Static<typeof ManifestAsset>;

/** The JSON Schema of the project file, as editors read it. */
export function manifestJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://estate-publisher.dev/schemas/project.schema.json',
    ...(JSON.parse(JSON.stringify(Manifest)) as Record<string, unknown>),
  };
}
