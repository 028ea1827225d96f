/** Request and answer shapes of campaigns. */
import { CAMPAIGN_STATES, MESSAGE_STATUSES } from '@herald/shared';
import { Type } from 'typebox';

const Channel = Type.Union([Type.Literal('EMAIL'), Type.Literal('SMS')]);
/** A string limited to a list of values (TypeBox cannot infer a union built from an array). */
const OneOf = (values: readonly string[]) => Type.Unsafe<string>({ type: 'string', enum: [...values] });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** Where a message goes when its own channel cannot deliver it: a template of the other channel, and its route. */
const FallbackBody = Type.Object({
  templateName: Type.String({ maxLength: 200, description: 'A template of the other channel than the campaign' }),
  groupId: Type.Optional(Nullable(Type.Integer())),
  configId: Type.Optional(Nullable(Type.Integer())),
});

export const CampaignBody = Type.Object({
  name: Type.String({ maxLength: 200 }),
  channel: Channel,
  listId: Type.Integer(),
  templateName: Type.String({ maxLength: 200 }),
  groupId: Type.Optional(Nullable(Type.Integer())),
  configId: Type.Optional(Nullable(Type.Integer())),
  fallback: Type.Optional(Nullable(FallbackBody)),
  unreadAfterHours: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 720,
      description: 'E-mail not opened this many hours after the campaign finished becomes unread (default 72)',
    }),
  ),
});

export const StartBody = Type.Object({
  /** Whole epoch milliseconds (a fraction would not fit the bigint column); absent or within the last minute means now, earlier is refused. At most the last moment a JavaScript Date can hold. */
  scheduledAt: Type.Optional(Nullable(Type.Integer({ maximum: 8_640_000_000_000_000 }))),
});

export const CampaignAnswer = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  channel: Type.String(),
  state: OneOf(CAMPAIGN_STATES),
  listId: Nullable(Type.Integer()),
  listName: Nullable(Type.String()),
  templateId: Nullable(Type.Integer()),
  templateName: Nullable(Type.String()),
  groupId: Nullable(Type.Integer()),
  configId: Nullable(Type.Integer()),
  fallback: Nullable(
    Type.Object({
      channel: Channel,
      templateId: Type.Integer(),
      templateName: Nullable(Type.String()),
      groupId: Nullable(Type.Integer()),
      configId: Nullable(Type.Integer()),
    }),
  ),
  unreadAfterHours: Type.Integer(),
  scheduledAt: Nullable(Type.Number()),
  startedAt: Nullable(Type.Number()),
  finishedAt: Nullable(Type.Number()),
  total: Type.Integer(),
  suppressed: Type.Integer(),
  detail: Nullable(Type.String()),
  /** Messages per status; they add up to total at every moment. */
  counts: Type.Record(Type.String(), Type.Integer()),
  /** Messages a provider's spent day or month limit holds back, and when the first of them goes (sooner if a limit is raised). */
  waitingForLimit: Nullable(Type.Object({ limit: OneOf(['day', 'month'] as const), until: Type.Number() })),
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
});

export const CheckAnswer = Type.Object({
  recipients: Type.Integer(),
  suppressed: Type.Integer(),
  smsParts: Nullable(Type.Integer()),
  estimatedParts: Nullable(Type.Integer()),
  /** The parts' cost at the route's first config, when it has a price per part; its last balance when one was read. */
  estimatedCost: Nullable(
    Type.Object({
      configId: Type.Integer(),
      configName: Type.String(),
      amount: Type.Number(),
      balance: Nullable(Type.Number()),
      currency: Nullable(Type.String()),
    }),
  ),
  /** Messages the route's active configs may still send this day and month; null when one of them has no limit. */
  limitHeadroom: Nullable(Type.Integer()),
});

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const ListQuery = Type.Object({
  state: Type.Optional(OneOf(CAMPAIGN_STATES)),
  page: Type.Integer({ minimum: 1, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
});

export const LogQuery = Type.Object({
  status: Type.Optional(OneOf(MESSAGE_STATUSES)),
  page: Type.Integer({ minimum: 1, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
});

export const LogAnswer = Type.Object({
  total: Type.Integer(),
  items: Type.Array(
    Type.Object({
      id: Type.Integer(),
      recipient: Type.String(),
      status: Type.String(),
      attempts: Type.Integer(),
      providerConfig: Nullable(Type.String()),
      providerMessage: Nullable(Type.String()),
      providerMessageId: Nullable(Type.String()),
      locale: Nullable(Type.String()),
      time: Type.Number(),
    }),
  ),
});
