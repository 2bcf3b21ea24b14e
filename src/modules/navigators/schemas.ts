import { type Static, type TOptional, type TSchema, Type } from '@sinclair/typebox';
import { Id, LIMITS, Nullable, StringEnum, withIgnored } from '../../http/schemas.js';
import { AddonAsset } from '../addons/schemas.js';

/** The spec's theme variables: every value a CSS colour (parsed and rewritten, never passed through: theme.ts). */
export const THEME_VARIABLES = [
  '--background',
  '--foreground',
  '--primary',
  '--primary-foreground',
  '--secondary',
  '--secondary-foreground',
  '--muted',
  '--muted-foreground',
  '--destructive',
  '--destructive-foreground',
  '--border',
  '--input',
  '--ring',
  '--apartment-active-stroke',
  '--apartment-active-fill',
  '--apartment-booked-stroke',
  '--apartment-booked-fill',
  '--apartment-sold-stroke',
  '--apartment-sold-fill',
  '--apartment-hidden-fill',
  '--apartment-hidden-stroke',
  '--promoted',
  '--promoted-foreground',
] as const;

/** CSS generic font families (the spec shows `fantasy`): a page writes one as it is, so only these. */
export const FONT_FAMILIES = [
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'system-ui',
  'ui-serif',
  'ui-sans-serif',
  'ui-monospace',
  'ui-rounded',
  'math',
  'emoji',
  'fangsong',
] as const;

export const NUMBER_OPTIONS = [
  'sourceWidth',
  'sourceHeight',
  'overlayWidth',
  'overlayHeight',
  'startingAngle',
  'minimalSidebarWidthPercent',
  'northFrameIndex',
] as const;
export const BOOLEAN_OPTIONS = [
  'canFreelyRotate',
  'disableHidingSidebar',
  'noApartmentsViewer',
  'mirroredRotationCameraMovement',
  'isLoopable',
  'favouritesEnabled',
  'compassEnabled',
] as const;

/** Largest overlay and source size in pixels (a 16K render is 15,360 wide). */
export const MAX_PIXELS = 100_000;
/** Longest theme value: the longest colour spelling (`hsla(…)` with decimals) is far shorter. */
const MAX_COLOUR_LENGTH = 100;

const Pixels = (description: string) => Type.Number({ exclusiveMinimum: 0, maximum: MAX_PIXELS, description });
const Angle = (description: string) => Type.Number({ minimum: 0, exclusiveMaximum: 360, description });
const Names = (description: string) => Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100, description });

const themeVariables = <T extends TSchema>(value: () => T) =>
  Object.fromEntries(THEME_VARIABLES.map((name) => [name, Type.Optional(value())])) as unknown as Record<(typeof THEME_VARIABLES)[number], TOptional<T>>;

/** customTheme as sent: merged key by key into the stored theme; null removes a key. */
const ThemeInput = Type.Object(
  {
    fontFamily: Type.Optional(Nullable(Type.Union(FONT_FAMILIES.map((f) => Type.Literal(f))))),
    ...themeVariables(() =>
      Nullable(Type.String({ minLength: 1, maxLength: MAX_COLOUR_LENGTH, description: 'A CSS colour: #hex, rgb()/rgba(), hsl()/hsla() or a named colour' })),
    ),
  },
  { additionalProperties: false },
);

const optionProperties = {
  sourceWidth: Pixels('Width of the source renders, pixels; set to the first frame’s image width unless set before'),
  sourceHeight: Pixels('Height of the source renders, pixels; set to the first frame’s image height unless set before'),
  overlayWidth: Pixels(
    'Width of the coordinate space of shapes and POIs: the renders’ pixels (set to the first frame’s image width unless set before; every frame’s image has the overlay’s aspect ratio within 1%)',
  ),
  overlayHeight: Pixels('Height of the coordinate space of shapes and POIs: the renders’ pixels (set to the first frame’s image height unless set before)'),
  startingAngle: Angle('Angle shown first, degrees'),
  minimalSidebarWidthPercent: Type.Number({ minimum: 0, maximum: 100 }),
  northFrameIndex: Type.Integer({ minimum: 0, maximum: 10_000, description: 'Index (by angle) of the frame that faces north' }),
  hideFilters: Names('Apartment list filters the viewer hides'),
  hideColumns: Names('Apartment list columns the viewer hides'),
  navigatorName: Type.String({ maxLength: LIMITS.name }),
  canFreelyRotate: Type.Boolean(),
  disableHidingSidebar: Type.Boolean(),
  noApartmentsViewer: Type.Boolean(),
  mirroredRotationCameraMovement: Type.Boolean(),
  isLoopable: Type.Boolean(),
  favouritesEnabled: Type.Boolean(),
  compassEnabled: Type.Boolean(),
};

/** `options` of a PATCH: only the spec's names, each of its type; merged key by key. */
export const OptionsInput = Type.Object(
  {
    ...(Object.fromEntries(Object.entries(optionProperties).map(([k, s]) => [k, Type.Optional(s)])) as unknown as {
      [K in keyof typeof optionProperties]: TOptional<(typeof optionProperties)[K]>;
    }),
    customTheme: Type.Optional(ThemeInput),
  },
  { additionalProperties: false },
);
export type OptionsInput = Static<typeof OptionsInput>;

const ThemeSchema = Type.Object(
  {
    fontFamily: Type.Optional(StringEnum(FONT_FAMILIES, 'A CSS generic font family')),
    ...themeVariables(() => Type.String({ description: 'A CSS colour, as the service wrote it: #rrggbb, or rgba() when not opaque' })),
  },
  { title: 'NavigatorTheme' },
);

const OptionsSchema = Type.Object(
  { ...optionProperties, customTheme: ThemeSchema },
  { title: 'NavigatorOptions', description: 'Viewer options (sizes, panels, theme)' },
);
export type NavigatorOptions = Static<typeof OptionsSchema>;

export const REFERENCE_TYPES = ['apartment', 'building'] as const;

export const ShapeSchema = Type.Object(
  {
    id: Type.String(),
    name: Nullable(Type.String()),
    description: Nullable(Type.String()),
    referenceType: StringEnum(REFERENCE_TYPES),
    referenceId: Type.String({ description: 'The apartment or building the shape outlines' }),
    shape: Type.String({ description: 'SVG path data in overlay coordinates, normalised: absolute commands, numbers rounded to 3 decimals' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'NavigatorShape' },
);

const PoiSchema = Type.Object(
  {
    id: Type.String(),
    x: Type.Number(),
    y: Type.Number(),
    data: Type.Object({ type: Type.String(), panoramaId: Nullable(Type.String()), startingPanoramaId: Nullable(Type.String()) }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'NavigatorPoi' },
);

/** A frame ("image"): the spec's fields plus its asset, so a viewer can write srcset. */
export const NavigatorImageSchema = Type.Object(
  {
    id: Type.String(),
    angle: Type.Number(),
    name: Type.String(),
    imageUrl: Type.String({ description: 'The asset’s src' }),
    isMarketingStop: Type.Boolean(),
    highlightLabel: Nullable(Type.String()),
    assetId: Type.String(),
    asset: AddonAsset,
    shapes: Type.Array(ShapeSchema, { description: 'In the order they were sent' }),
    pois: Type.Array(PoiSchema),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'NavigatorImage' },
);
export type NavigatorImage = Static<typeof NavigatorImageSchema>;

export const NavigatorSchema = Type.Object(
  {
    id: Type.String(),
    estateId: Type.String(),
    parentId: Nullable(Type.String({ description: 'The navigator this one is nested in; null for the estate’s first' })),
    referenceId: Type.String(),
    referenceType: StringEnum(['estate', 'building'], 'estate for the estate’s first navigator, building for a nested one'),
    type: Type.String({ description: 'image' }),
    seoTitle: Nullable(Type.String()),
    seoDescription: Nullable(Type.String()),
    seoOgImage: Nullable(Type.String()),
    images: Type.Array(NavigatorImageSchema, { description: 'Frames, by angle' }),
    createdAt: Type.String({ format: 'date-time' }),
    options: OptionsSchema,
    nested: Type.Array(Type.Unsafe<unknown>({ $ref: 'Navigator' }), { description: 'Navigators nested in this one (same shape), oldest first' }),
    isPreview: Type.Boolean(),
  },
  { $id: 'Navigator', title: 'Navigator' },
);
export type Navigator = Omit<Static<typeof NavigatorSchema>, 'nested'> & { nested: Navigator[] };

/** Fields of the response a client may send back unchanged (GET-modify-PATCH). */
export const NAVIGATOR_IGNORED = ['id', 'estateId', 'parentId', 'referenceId', 'referenceType', 'type', 'images', 'createdAt', 'nested'];

export const UpdateNavigatorBody = withIgnored(
  {
    seoTitle: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.name }))),
    seoDescription: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.description }))),
    seoOgImage: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.url, description: 'URL of the Open Graph image' }))),
    isPreview: Type.Optional(Type.Boolean()),
    options: Type.Optional(OptionsInput),
  },
  NAVIGATOR_IGNORED,
);

export const CreateNavigatorBody = Type.Object(
  {
    estateId: Id('The estate'),
    parentId: Type.Optional(Id('The navigator to nest this one in; omitted: the estate’s first navigator (409 when it has one)')),
    referenceType: Type.Optional(Type.Literal('building', { description: 'With parentId: building' })),
    referenceId: Type.Optional(Id('With parentId: a building of the estate')),
    name: Type.String({ minLength: 1, maxLength: LIMITS.name, pattern: '\\S', description: 'Becomes seoTitle and options.navigatorName' }),
  },
  { additionalProperties: false },
);

export const ListNavigatorsQuery = Type.Object({ estateId: Type.String({ maxLength: 200, description: 'The estate' }) }, { additionalProperties: false });

const Label = () => Nullable(Type.String({ maxLength: LIMITS.shortText }));

export const CreateImageBody = Type.Object(
  {
    assetId: Id(
      'An image asset of the organization with known width and height, with the overlay’s aspect ratio within 1% (the navigator’s first frame sets the sizes instead, unless they were set)',
    ),
    angle: Angle('Degrees, 0 <= angle < 360; one frame per angle'),
    name: Type.Optional(Type.String({ maxLength: LIMITS.name, description: 'Defaults to the angle, e.g. "90°"' })),
    isMarketingStop: Type.Optional(Type.Boolean()),
    highlightLabel: Type.Optional(Label()),
  },
  { additionalProperties: false },
);

export const UpdateImageBody = withIgnored(
  {
    assetId: Type.Optional(Id('An image asset of the organization with known width and height, with the overlay’s aspect ratio within 1%')),
    angle: Type.Optional(Angle('Degrees, 0 <= angle < 360; one frame per angle')),
    name: Type.Optional(Type.String({ maxLength: LIMITS.name })),
    isMarketingStop: Type.Optional(Type.Boolean()),
    highlightLabel: Type.Optional(Label()),
  },
  ['id', 'imageUrl', 'asset', 'shapes', 'pois', 'createdAt'],
);

/** Most shapes on one frame. */
export const MAX_SHAPES = 2_000;
/** Longest path data of one shape (characters). */
export const MAX_PATH_LENGTH = 20_000;
export const MAX_POIS = 500;

export const ShapesBody = Type.Array(
  Type.Object(
    {
      name: Type.Optional(Label()),
      description: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.description }))),
      referenceType: Type.Union(REFERENCE_TYPES.map((r) => Type.Literal(r))),
      referenceId: Id('An apartment or building of the navigator’s estate'),
      shape: Type.String({ minLength: 1, maxLength: MAX_PATH_LENGTH, description: 'SVG path data, every point inside overlayWidth × overlayHeight' }),
    },
    { additionalProperties: false },
  ),
  { maxItems: MAX_SHAPES, description: `The frame's shapes, replacing the ones it has (at most ${MAX_SHAPES})` },
);
export type ShapeInput = Static<typeof ShapesBody>[number];

export const PoisBody = Type.Array(
  Type.Object(
    {
      x: Type.Number({ description: 'Overlay coordinates' }),
      y: Type.Number(),
      data: Type.Object(
        {
          type: Type.String({ minLength: 1, maxLength: LIMITS.shortText }),
          panoramaId: Type.Optional(Nullable(Id('A panorama of the organization'))),
          startingPanoramaId: Type.Optional(Nullable(Id('A panorama of the organization'))),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  { maxItems: MAX_POIS, description: `The frame's points of interest, replacing the ones it has (at most ${MAX_POIS})` },
);
export type PoiInput = Static<typeof PoisBody>[number];

const PathId = () => Type.String({ maxLength: 200 });
export const ImageParams = Type.Object({ id: PathId(), imageId: PathId() });
