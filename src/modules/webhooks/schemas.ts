import { type Static, Type } from '@sinclair/typebox';
import { Description, Nullable, StringEnum, Url, withIgnored } from '../../http/schemas.js';
import { EVENT_TYPES } from './events.js';

export const MAX_ENDPOINTS = 20;

const EventName = Type.Union(
  [...EVENT_TYPES, '*'].map((t) => Type.Literal(t)),
  {
    description: `An event type (${EVENT_TYPES.join(', ')}) or * for all`,
  },
);
const Events = () => Type.Array(EventName, { minItems: 1, maxItems: EVENT_TYPES.length + 1, description: 'Event types to receive, or ["*"]' });

export const WebhookSchema = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(StringEnum([...EVENT_TYPES, '*'])),
    description: Nullable(Type.String()),
    enabled: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    disabledReason: Nullable(Type.String({ description: 'Why the service disabled the endpoint (410 Gone, 3 days of failures); null otherwise' })),
  },
  { $id: 'Webhook', title: 'Webhook' },
);
export type Webhook = Static<typeof WebhookSchema>;

export const CreatedWebhook = Type.Object({
  ...WebhookSchema.properties,
  secret: Type.String({ description: 'whsec_… signing secret; shown only in this answer' }),
});

export const CreateWebhookBody = Type.Object(
  {
    url: Url(),
    events: Events(),
    description: Type.Optional(Nullable(Description())),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);

export const WEBHOOK_IGNORED = ['id', 'createdAt', 'disabledReason'];

export const UpdateWebhookBody = withIgnored(
  {
    url: Type.Optional(Url()),
    events: Type.Optional(Events()),
    description: Type.Optional(Nullable(Description())),
    enabled: Type.Optional(Type.Boolean({ description: 'true re-enables a disabled endpoint and clears disabledReason' })),
  },
  WEBHOOK_IGNORED,
);

export const SecretSchema = Type.Object({
  secret: Type.String({ description: 'The new whsec_… secret; each rotated-out one keeps signing for 24 hours from its rotation' }),
});

export const DeliverySchema = Type.Object(
  {
    id: Type.String(),
    eventId: Type.String({ description: 'The webhook-id header: the same on every attempt of the event' }),
    eventType: StringEnum(EVENT_TYPES),
    attempt: Type.Integer({ description: '1 for the first attempt' }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
    responseStatus: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    durationMs: Nullable(Type.Integer()),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery' },
);
export type Delivery = Static<typeof DeliverySchema>;

export const DeliveryList = Type.Object({
  items: Type.Array(Type.Ref(DeliverySchema)),
  nextCursor: Nullable(Type.String({ description: 'Pass as cursor for the next (older) page; null at the end' })),
});

export const DeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Attempts to return (default 20, max 100)' })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'nextCursor of the previous page' })),
  },
  { additionalProperties: false },
);

export const DeliveryParams = Type.Object({ id: Type.String({ maxLength: 200 }), deliveryId: Type.String({ maxLength: 200 }) });
