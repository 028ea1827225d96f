/** Request and answer shapes of the console's webhook screens. */
import { Type } from 'typebox';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Events = Type.Union([Type.Literal('api'), Type.Literal('all')]);

export const WebhookBody = Type.Object({
  url: Type.String({ maxLength: 2000 }),
  enabled: Type.Boolean(),
  /** api: messages sent through /api/v1 only (the default); all: campaign messages too. */
  events: Type.Optional(Events),
});

export const WebhookAnswer = Type.Object({
  url: Nullable(Type.String()),
  enabled: Type.Boolean(),
  events: Events,
  createdAt: Nullable(Type.Number()),
  updatedAt: Nullable(Type.Number()),
});

/** The secret appears only in the answer that created or rotated it. */
export const SecretAnswer = Type.Object({ secret: Type.String() });
export const SavedWebhookAnswer = Type.Object({ ...WebhookAnswer.properties, secret: Type.Optional(Type.String()) });

export const DeliveryAnswer = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  messageId: Nullable(Type.Integer()),
  status: Nullable(Type.String()),
  previousStatus: Nullable(Type.String()),
  /** pending, delivered or failed (given up). */
  state: Type.String(),
  attempts: Type.Integer(),
  responseCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  at: Type.Number(),
  nextAttemptAt: Nullable(Type.Number()),
  deliveredAt: Nullable(Type.Number()),
});

export const DeliveriesQuery = Type.Object({
  state: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')])),
  page: Type.Integer({ minimum: 1, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
