/** Request and answer shapes of Settings > Notifications. */
import { NOTIFY_EVENTS, SLACK_SENDER_MAX, SLACK_URL_MAX } from '@herald/shared';
import { Type } from 'typebox';

const NotifyEvent = Type.String({ description: `One of ${NOTIFY_EVENTS.join(', ')}` });

export const HookSettings = Type.Object({
  slackUrl: Type.Union([Type.String(), Type.Null()], { description: 'Masked: host and last characters only' }),
  configured: Type.Boolean(),
  senderName: Type.String(),
  events: Type.Array(NotifyEvent),
  balanceThreshold: Type.Union([Type.Number(), Type.Null()]),
});

export const HookSettingsBody = Type.Object({
  slackUrl: Type.Optional(
    Type.Union([Type.String({ maxLength: SLACK_URL_MAX + 100 }), Type.Null()], {
      description: 'Omit to keep the saved URL; null or empty removes it',
    }),
  ),
  senderName: Type.String({ maxLength: SLACK_SENDER_MAX + 100 }),
  events: Type.Array(Type.String({ maxLength: 40 }), { maxItems: 20 }),
  balanceThreshold: Type.Union([Type.Number(), Type.Null()]),
});

export const HookTestBody = Type.Object({
  slackUrl: Type.Optional(Type.Union([Type.String({ maxLength: SLACK_URL_MAX + 100 }), Type.Null()])),
  senderName: Type.Optional(Type.String({ maxLength: SLACK_SENDER_MAX + 100 })),
});

export const HookTestAnswer = Type.Object({
  ok: Type.Boolean(),
  status: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const DeliveriesQuery = Type.Object({
  page: Type.Integer({ minimum: 1, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
});

export const DeliveriesAnswer = Type.Object({
  total: Type.Integer(),
  items: Type.Array(
    Type.Object({
      id: Type.Integer(),
      event: Type.String(),
      text: Type.String(),
      status: Type.Union([Type.Literal('pending'), Type.Literal('sent'), Type.Literal('failed')]),
      attempts: Type.Integer(),
      responseStatus: Type.Union([Type.Integer(), Type.Null()]),
      error: Type.Union([Type.String(), Type.Null()]),
      createdAt: Type.String(),
      nextAttemptAt: Type.Union([Type.String(), Type.Null()]),
      finishedAt: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});
