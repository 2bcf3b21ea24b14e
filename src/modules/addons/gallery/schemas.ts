import { type Static, Type } from '@sinclair/typebox';
import { Description, Id, LIMITS, Nullable } from '../../../http/schemas.js';
import { AddonAsset, Order, Title } from '../schemas.js';

export const GalleryItem = Type.Object(
  {
    id: Type.String(),
    assetId: Type.String(),
    caption: Nullable(Type.String()),
    sectionId: Nullable(Type.String({ description: 'null when the item is ungrouped' })),
    order: Type.Integer(),
    asset: AddonAsset,
  },
  { title: 'GalleryItem' },
);

export const GallerySection = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    description: Nullable(Type.String()),
    order: Type.Integer(),
    items: Type.Array(GalleryItem),
  },
  { title: 'GallerySection' },
);

export const GalleryDocument = Type.Object(
  {
    enabled: Type.Boolean(),
    sections: Type.Array(GallerySection),
    items: Type.Array(GalleryItem, { description: 'Ungrouped items' }),
  },
  { title: 'GalleryDocument' },
);
export type GalleryDocument = Static<typeof GalleryDocument>;

const Caption = () => Nullable(Type.String({ maxLength: LIMITS.name, description: 'Caption' }));

export const CreateGallerySection = Type.Object(
  { title: Title('Section title'), description: Type.Optional(Nullable(Description())), order: Type.Optional(Order()) },
  { additionalProperties: false },
);

export const UpdateGallerySection = Type.Object(
  { title: Type.Optional(Title('Section title')), description: Type.Optional(Nullable(Description())), order: Type.Optional(Order()) },
  { additionalProperties: false },
);

export const CreateGalleryItem = Type.Object(
  {
    assetId: Id('An image or video asset of the organization'),
    caption: Type.Optional(Caption()),
    sectionId: Type.Optional(Nullable(Id('Section of this gallery; omit or null for an ungrouped item'))),
    order: Type.Optional(Order()),
  },
  { additionalProperties: false },
);

export const UpdateGalleryItem = Type.Object(
  {
    assetId: Type.Optional(Id('An image or video asset of the organization')),
    caption: Type.Optional(Caption()),
    sectionId: Type.Optional(Nullable(Id('Moves the item to this section; null moves it to ungrouped'))),
    order: Type.Optional(Order()),
  },
  { additionalProperties: false },
);
