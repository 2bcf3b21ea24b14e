import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '../../http/schemas.js';

const NavigatorImage = Type.Object(
  {
    id: Type.String(),
    angle: Type.Number(),
    name: Type.String(),
    imageUrl: Type.String(),
    isMarketingStop: Type.Boolean(),
    highlightLabel: Nullable(Type.String()),
    shapes: Type.Array(Type.Object({}, { additionalProperties: true })),
    pois: Type.Array(Type.Object({}, { additionalProperties: true })),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: true },
);

export const NavigatorSchema = Type.Object(
  {
    id: Type.String(),
    referenceId: Type.String(),
    referenceType: Type.String({ description: 'estate' }),
    type: Type.String({ description: 'image' }),
    seoTitle: Nullable(Type.String()),
    seoDescription: Nullable(Type.String()),
    seoOgImage: Nullable(Type.String()),
    images: Type.Array(NavigatorImage),
    createdAt: Type.String({ format: 'date-time' }),
    options: Type.Object({}, { additionalProperties: true, description: 'Viewer options (sizes, panels, theme)' }),
    nested: Type.Array(Type.Unsafe<unknown>({ $ref: 'Navigator' })),
    isPreview: Type.Boolean(),
  },
  { $id: 'Navigator', title: 'Navigator' },
);
export type Navigator = Static<typeof NavigatorSchema>;
