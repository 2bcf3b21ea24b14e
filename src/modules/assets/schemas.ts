import { type Static, Type } from '@sinclair/typebox';
import { LIMITS, Name, Nullable, PageQuery } from '../../http/schemas.js';

/** 20 MB upload limit of the spec, counted in binary megabytes (20 × 1,048,576 bytes). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** Cap on a file registered by URL (DECISIONS). */
export const MAX_REMOTE_BYTES = 100 * 1024 * 1024;

/** Widths of the WebP variants; an image gets those narrower than itself. */
export const VARIANT_WIDTHS = [320, 640, 1280, 1920] as const;

/** What the database keeps of a variant (assets.variants); `src` and `mimeType` follow from the asset. */
export interface StoredVariant {
  width: number;
  height: number;
  /** null until the variant is made. */
  sizeBytes: number | null;
}

/** A responsive variant: WebP, orientation applied, no metadata. */
export const VariantSchema = Type.Object({
  width: Type.Integer(),
  height: Type.Integer(),
  mimeType: Type.Literal('image/webp'),
  src: Type.String({ description: 'URL of the variant, always served by the service; a variant not made yet is made by its first request' }),
  sizeBytes: Nullable(Type.Integer({ description: 'null while the variant is still being made (its src answers anyway)' })),
});
export type Variant = Static<typeof VariantSchema>;

/** The image fields, shared by the asset and the asset embedded in public add-on reads. */
export const imageProperties = {
  width: Nullable(Type.Integer({ description: 'Pixels, after EXIF orientation; null for anything not a readable raster image' })),
  height: Nullable(Type.Integer({ description: 'Pixels, after EXIF orientation; null for anything not a readable raster image' })),
  variants: Type.Array(VariantSchema, {
    description: 'WebP variants for each of 320, 640, 1280, 1920 pixels narrower than the image, smallest first; [] for other assets',
  }),
  placeholder: Nullable(Type.String({ description: 'ThumbHash (base64) of the image for a blurred preview; null until the variants are made' })),
};

const assetProperties = {
  id: Type.String({ description: 'UUID' }),
  name: Type.String(),
  src: Type.String({ description: 'URL of the file: the service’s /files/… or the bucket when S3_PUBLIC_URL is set; the original bytes as uploaded' }),
  mimeType: Type.String({ description: 'Detected from the content (magic bytes); text formats by extension' }),
  sizeBytes: Type.Integer(),
  sha256: Type.String({
    pattern: '^[0-9a-f]{64}$',
    description: 'SHA-256 of the original bytes (hex): a client can tell whether it already uploaded a file; also the ETag of its /files URL',
  }),
  ...imageProperties,
  hasLocation: Type.Boolean({
    description: 'Whether the original carries a GPS position (EXIF or XMP); the original is served as uploaded, variants never carry it',
  }),
  createdAt: Type.String({ format: 'date-time' }),
};

/** The asset shape without an $id, for embedding in other $id schemas (add-on children). */
export const AssetInline = Type.Object(assetProperties);
export const AssetSchema = Type.Object(assetProperties, { $id: 'Asset', title: 'Asset' });
export type Asset = Static<typeof AssetSchema>;

export const RegisterAssetBody = Type.Object(
  {
    src: Type.String({
      // In the document as `format: uri`; the service's own check answers a clearer 422 (x-format in document.ts).
      'x-format': 'uri',
      minLength: 1,
      maxLength: LIMITS.url,
      description: 'Absolute http or https URL of a publicly hosted file; the service stores its own copy',
    }),
    name: Type.Optional(Name('Asset name; the file name of the URL when omitted')),
  },
  { additionalProperties: false },
);

const usedByList = (what: string) => Type.Array(Type.String(), { description: `Ids of the ${what}` });

/** One asset with what uses it (GET /asset/{id}). */
export const AssetWithUsageSchema = Type.Object(
  {
    ...assetProperties,
    usedBy: Type.Object({
      apartments: usedByList('apartments whose assetsIds name the asset'),
      gallery: usedByList('gallery items showing it'),
      investment: usedByList('investment files'),
      downloads: usedByList('downloads items'),
      mapLogo: usedByList('estates whose map logo it is'),
      navigatorFrames: usedByList('navigator frames (images) showing it'),
    }),
  },
  { $id: 'AssetWithUsage', title: 'AssetWithUsage' },
);
export type AssetWithUsage = Static<typeof AssetWithUsageSchema>;
export type UsedBy = AssetWithUsage['usedBy'];

export const ListAssetsQuery = Type.Object(
  {
    unused: Type.Optional(
      Type.Boolean({
        description:
          'true: only assets nothing uses (apartments, gallery, investment, downloads, map logo, navigator frames); false: only assets something uses',
      }),
    ),
    mimeType: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Prefix of the MIME type, e.g. `image/` or `application/pdf`' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);
