/**
 * The navigator of a project file: the estate's first navigator and the nested ones of its buildings,
 * their frames (by asset entry and angle) and the shapes on each frame (by apartment, its externalId or
 * name, or by building name). Fields reuse the API's definitions.
 */
import { type Static, Type } from '@sinclair/typebox';
import { CreateImageBody, OptionsInput, ShapesBody, UpdateNavigatorBody } from '../../modules/navigators/schemas.js';

const closed = { additionalProperties: false } as const;
const shape = ShapesBody.items.properties;
const image = CreateImageBody.properties;
const nav = UpdateNavigatorBody.properties;

export const ManifestShape = Type.Union(
  [
    Type.Object(
      {
        apartment: Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'The apartment: its externalId, or its name when no apartment has that externalId',
        }),
        path: shape.shape,
        name: shape.name,
        description: shape.description,
      },
      closed,
    ),
    Type.Object(
      {
        building: Type.String({ minLength: 1, maxLength: 200, description: 'The building, by name' }),
        path: shape.shape,
        name: shape.name,
        description: shape.description,
      },
      closed,
    ),
  ],
  { description: 'An outline on the frame (SVG path data in overlay coordinates) pointing at an apartment or a building' },
);

export const ManifestFrame = Type.Object(
  {
    asset: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$', maxLength: 100, description: 'An image entry of `assets`' }),
    angle: image.angle,
    name: image.name,
    isMarketingStop: image.isMarketingStop,
    highlightLabel: image.highlightLabel,
    shapes: Type.Optional(
      Type.Array(ManifestShape, { maxItems: 2_000, description: 'The frame’s shapes, in order; they replace the frame’s shapes when they differ' }),
    ),
  },
  { ...closed, description: 'Matched by angle' },
);

const navigatorFields = {
  seoTitle: nav.seoTitle,
  seoDescription: nav.seoDescription,
  seoOgImage: nav.seoOgImage,
  isPreview: nav.isPreview,
  options: Type.Optional(OptionsInput),
  frames: Type.Optional(Type.Array(ManifestFrame, { maxItems: 360 })),
};

export const ManifestNested = Type.Object(
  {
    building: Type.String({ minLength: 1, maxLength: 200, description: 'The building this navigator shows, by name; matched by it' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Its name when created (default: the building’s)' })),
    ...navigatorFields,
  },
  closed,
);

export const ManifestNavigator = Type.Object(
  {
    ...navigatorFields,
    nested: Type.Optional(Type.Array(ManifestNested, { maxItems: 100, description: 'Navigators of buildings, nested in the estate’s navigator' })),
  },
  {
    ...closed,
    description:
      'The estate’s navigator (created when the estate has none). Options merge key by key; frames and nested navigators not declared are removed only with --prune-addons',
  },
);

export type ManifestNavigator = Static<typeof ManifestNavigator>;
export type ManifestNested = Static<typeof ManifestNested>;
export type ManifestFrame = Static<typeof ManifestFrame>;
export type ManifestShape = Static<typeof ManifestShape>;
