import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Description, Id, LIMITS, Name, Nullable } from '../../http/schemas.js';
import { HttpUrl } from '../users/schemas.js';

const Coordinate = () => Type.Number({ minimum: -1e6, maximum: 1e6 });
const Text = () => Type.String({ maxLength: LIMITS.shortText });
const DateTimeOut = () => Type.String({ format: 'date-time' });

const metadataFields = {
  prealign: Nullable(Type.String()),
  hlookat: Nullable(Type.Number()),
  vlookat: Nullable(Type.Number()),
  northOffset: Nullable(Type.Number()),
};

const Comment = Type.Object({
  id: Type.String(),
  comment: Type.String(),
  authorData: Type.Object({ name: Nullable(Type.String()), email: Nullable(Type.String()), nickname: Nullable(Type.String()) }),
  createdAt: DateTimeOut(),
  x: Type.Number(),
  y: Type.Number(),
  parentCommentId: Nullable(Type.String({ description: 'id of the comment this one answers' })),
});

const Portal = Type.Object({
  id: Type.String(),
  icon: Nullable(Type.String()),
  label: Nullable(Type.String()),
  x: Type.Number(),
  y: Type.Number(),
  fromPanoramaId: Type.String(),
  toPanoramaId: Nullable(Type.String()),
  createdAt: DateTimeOut(),
});

const Poi = Type.Object({
  id: Type.String(),
  name: Type.String(),
  x: Type.Number(),
  y: Type.Number(),
  data: Type.Object({ urls: Type.Array(Type.String()), type: Nullable(Type.String()) }),
  createdAt: DateTimeOut(),
});

const panoramaFields = (linked: TSchema) => ({
  id: Type.String(),
  name: Type.String(),
  src: Type.String(),
  priority: Type.Number(),
  linkedPanoramas: linked,
  apartmentId: Type.String(),
  seoTitle: Nullable(Type.String()),
  seoDescription: Nullable(Type.String()),
  metadata: Type.Object(metadataFields),
  createdAt: DateTimeOut(),
  comments: Type.Array(Comment),
  portals: Type.Array(Portal),
  pois: Type.Array(Poi),
});

/** A linked panorama: the same shape, expanded one level only (its own linkedPanoramas are []). */
const LinkedPanorama = Type.Object(panoramaFields(Type.Array(Type.Unknown(), { maxItems: 0, description: 'Always empty at this level' })));

export const PanoramaSchema = Type.Object(panoramaFields(Type.Array(LinkedPanorama)), { $id: 'Panorama', title: 'Panorama' });

const CommentInput = Type.Object(
  {
    id: Type.Optional(Type.String({ format: 'uuid', description: 'Optional client id, so parentCommentId can name it' })),
    comment: Type.String({ minLength: 1, maxLength: LIMITS.description }),
    authorData: Type.Optional(
      Type.Object(
        {
          name: Type.Optional(Nullable(Text())),
          email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
          nickname: Type.Optional(Nullable(Text())),
        },
        { additionalProperties: false },
      ),
    ),
    x: Coordinate(),
    y: Coordinate(),
    parentCommentId: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'id of another comment of this panorama' }))),
  },
  { additionalProperties: false },
);
export type Panorama = Static<typeof PanoramaSchema>;

const PortalInput = Type.Object(
  {
    icon: Type.Optional(Nullable(Text())),
    label: Type.Optional(Nullable(Text())),
    x: Coordinate(),
    y: Coordinate(),
    toPanoramaId: Type.Optional(Nullable(Id('A panorama of the same organization'))),
  },
  { additionalProperties: false },
);

const PoiInput = Type.Object(
  {
    name: Name('Point name'),
    x: Coordinate(),
    y: Coordinate(),
    data: Type.Optional(
      Type.Object({ urls: Type.Optional(Type.Array(HttpUrl(), { maxItems: 50 })), type: Type.Optional(Nullable(Text())) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

export const CreatePanoramaBody = Type.Object(
  {
    name: Name('Panorama name'),
    src: HttpUrl(),
    priority: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description: 'Higher comes first' })),
    seoTitle: Type.Optional(Nullable(Text())),
    seoDescription: Type.Optional(Nullable(Description())),
    metadata: Type.Optional(
      Type.Object(
        {
          prealign: Type.Optional(Nullable(Text())),
          hlookat: Type.Optional(Nullable(Type.Number({ minimum: -360, maximum: 360 }))),
          vlookat: Type.Optional(Nullable(Type.Number({ minimum: -360, maximum: 360 }))),
          northOffset: Type.Optional(Nullable(Type.Number({ minimum: -360, maximum: 360 }))),
        },
        { additionalProperties: false },
      ),
    ),
    comments: Type.Optional(Type.Array(CommentInput, { maxItems: 500 })),
    portals: Type.Optional(Type.Array(PortalInput, { maxItems: 200 })),
    pois: Type.Optional(Type.Array(PoiInput, { maxItems: 200 })),
    linkedPanoramaIds: Type.Optional(Type.Array(Id('A panorama of the same organization'), { maxItems: 100 })),
  },
  { additionalProperties: false },
);
