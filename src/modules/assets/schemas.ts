import { type Static, Type } from '@sinclair/typebox';
import { LIMITS, Name, PageQuery } from '../../http/schemas.js';

/** 20 MB upload limit of the spec, counted in binary megabytes (20 × 1,048,576 bytes). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** Cap on a file registered by URL (DECISIONS). */
export const MAX_REMOTE_BYTES = 100 * 1024 * 1024;

const assetProperties = {
  id: Type.String({ description: 'UUID' }),
  name: Type.String(),
  src: Type.String({ description: 'URL of the file: the service’s /files/… or the bucket when S3_PUBLIC_URL is set' }),
  mimeType: Type.String({ description: 'Detected from the content (magic bytes); text formats by extension' }),
  sizeBytes: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
};

/** The asset shape without an $id, for embedding in other $id schemas (add-on children). */
export const AssetInline = Type.Object(assetProperties);
export const AssetSchema = Type.Object(assetProperties, { $id: 'Asset', title: 'Asset' });
export type Asset = Static<typeof AssetSchema>;

export const RegisterAssetBody = Type.Object(
  {
    src: Type.String({ minLength: 1, maxLength: LIMITS.url, description: 'http or https URL of a publicly hosted file; the service stores its own copy' }),
    name: Type.Optional(Name('Asset name; the file name of the URL when omitted')),
  },
  { additionalProperties: false },
);

export const ListAssetsQuery = Type.Object(
  {
    mimeType: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Prefix of the MIME type, e.g. `image/` or `application/pdf`' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);
