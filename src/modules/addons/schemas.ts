import { Type } from '@sinclair/typebox';
import { Id, LIMITS, Nullable } from '../../http/schemas.js';
import { imageProperties } from '../assets/schemas.js';

/** The embedded asset, inline (a nested $ref inside another schema is not followed by the serializer). */
export const AddonAsset = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    src: Type.String({ description: 'URL of the file' }),
    mimeType: Type.String(),
    sizeBytes: Type.Number(),
    ...imageProperties,
  },
  { title: 'AddonAsset' },
);

export const Title = (description = 'Title') => Type.String({ minLength: 1, maxLength: LIMITS.name, pattern: '\\S', description });
export const Label = (description = 'Label') => Type.String({ maxLength: LIMITS.shortText, description });
export const Order = () => Type.Integer({ minimum: 0, maximum: 100_000, description: '0-based position among siblings; inserts there and shifts the rest' });

export const EnableBody = Type.Object(
  { enabled: Type.Boolean({ description: 'true turns the add-on on; the record is created on the first call' }) },
  { additionalProperties: false },
);

export const OrderBody = Type.Object(
  { orderedIds: Type.Array(Id('Sibling id'), { maxItems: 10_000, description: 'Every sibling id exactly once, in the wanted order' }) },
  { additionalProperties: false },
);

export const EstateParams = Type.Object({ estateId: Type.String({ maxLength: 200 }) });
const PathId = () => Type.String({ maxLength: 200 });
export const SectionParams = Type.Object({ estateId: PathId(), sectionId: PathId() });
export const ItemParams = Type.Object({ estateId: PathId(), itemId: PathId() });
export const GroupParams = Type.Object({ estateId: PathId(), groupId: PathId() });
export const PoiParams = Type.Object({ estateId: PathId(), poiId: PathId() });
export const SectionFileParams = Type.Object({ estateId: PathId(), sectionId: PathId(), fileId: PathId() });
export const GroupItemParams = Type.Object({ estateId: PathId(), groupId: PathId(), itemId: PathId() });

export { Nullable };
