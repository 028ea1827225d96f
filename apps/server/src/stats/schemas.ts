/** Request and answer shapes of reports, the message log and the dashboard. */
import { Type } from 'typebox';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** The channel as the console's routes spell it. */
export const ChannelParams = Type.Object({ channel: Type.Union([Type.Literal('email'), Type.Literal('sms')]) });

const DateText = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD, a day of the account time zone' });
/** The spec's dateRange: two dates, repeated like every array parameter. */
const DateRange = Type.Array(DateText, {
  minItems: 2,
  maxItems: 2,
  description: 'First and last day (inclusive), e.g. dateRange=2026-11-01&dateRange=2026-11-07',
});

export const ReportQuery = Type.Object({
  dayCount: Type.Optional(Type.Integer({ minimum: 1, description: 'The last N days, today included (default 7)' })),
  dateRange: Type.Optional(DateRange),
  category: Type.Optional(Type.Integer({ minimum: 1, description: 'Template category id' })),
});

const Counts = Type.Record(Type.String(), Type.Integer(), { description: 'Messages per status' });

const Breakdown = Type.Array(
  Type.Object({
    /** 0: no config yet (unsent, filtered) or no campaign (API messages). */
    id: Type.Integer(),
    name: Nullable(Type.String()),
    total: Type.Integer(),
    counts: Counts,
  }),
);

export const ReportAnswer = Type.Object({
  from: Type.String(),
  to: Type.String(),
  total: Type.Integer(),
  counts: Counts,
  /** Reached (delivered, unread, read) over accepted by a provider; null when nothing was accepted. */
  deliveryRate: Nullable(Type.Number()),
  /** Read over reached; null when nothing was reached. */
  readRate: Nullable(Type.Number()),
  days: Type.Array(
    Type.Object({
      date: Type.String(),
      total: Type.Integer(),
      counts: Counts,
      deliveryRate: Nullable(Type.Number()),
      readRate: Nullable(Type.Number()),
    }),
  ),
  configs: Breakdown,
  campaigns: Breakdown,
});

export const LogQuery = Type.Object({
  status: Type.Optional(Type.String({ maxLength: 40 })),
  recipient: Type.Optional(Type.String({ maxLength: 320 })),
  dateRange: Type.Optional(DateRange),
  configId: Type.Optional(Type.Integer({ minimum: 1 })),
  campaignId: Type.Optional(Type.Integer({ minimum: 1 })),
  page: Type.Integer({ minimum: 1, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
});

const LogEntry = Type.Object({
  id: Type.Integer(),
  status: Type.String(),
  /** When the message last changed status. */
  time: Type.Number(),
  createdAt: Type.Number(),
  recipient: Type.String(),
  template: Nullable(Type.String()),
  configId: Nullable(Type.Integer()),
  providerConfig: Nullable(Type.String()),
  /** The provider's words (or Herald's reason) for the current status. */
  providerMessage: Nullable(Type.String()),
  providerMessageId: Nullable(Type.String()),
  attempts: Type.Integer(),
  retries: Type.Integer(),
  locale: Nullable(Type.String()),
  campaignId: Nullable(Type.Integer()),
  campaign: Nullable(Type.String()),
  /** The campaign's state: a cancelled campaign's waiting messages will never be sent. */
  campaignState: Nullable(Type.String()),
});

export const LogAnswer = Type.Object({
  /** Matches, counted up to the cap. */
  total: Type.Integer(),
  /** True when there are more matches than `total` says. */
  capped: Type.Boolean(),
  items: Type.Array(LogEntry),
});

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const MessageAnswer = Type.Object({
  ...LogEntry.properties,
  channel: Type.String(),
  history: Type.Array(
    Type.Object({
      status: Type.String(),
      at: Type.Number(),
      detail: Nullable(Type.String()),
      configId: Nullable(Type.Integer()),
      providerConfig: Nullable(Type.String()),
    }),
  ),
});

export const DashboardAnswer = Type.Object({
  today: Type.Integer(),
  week: Type.Integer(),
  /** Over the last 7 days, both channels. */
  deliveryRate: Nullable(Type.Number()),
  runningCampaigns: Type.Integer(),
  days: Type.Array(Type.Object({ date: Type.String(), email: Type.Integer(), sms: Type.Integer(), reached: Type.Integer() })),
});
