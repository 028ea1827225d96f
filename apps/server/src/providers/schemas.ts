/** Request and answer shapes of provider configs, groups, balances and options. */
import { Type } from 'typebox';

export const Category = Type.Union([Type.Literal('EMAIL'), Type.Literal('SMS')]);

export const FilterItem = Type.Object({
  kind: Type.Union([Type.Literal('country'), Type.Literal('operator')]),
  value: Type.String({ maxLength: 200 }),
});

/** Day and month limits live in 32-bit columns. */
const Limit = Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), Type.Null()]));

export const ConfigBody = Type.Object({
  id: Type.Optional(Type.Integer()),
  name: Type.String({ maxLength: 120 }),
  type: Type.String({ maxLength: 40 }),
  active: Type.Optional(Type.Boolean()),
  limitPerDay: Limit,
  limitPerMonth: Limit,
  filter: Type.Optional(Type.Array(FilterItem, { maxItems: 20 })),
  settings: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export const ConfigAnswer = Type.Object({
  id: Type.Integer(),
  providerConfigId: Type.Integer(),
  name: Type.String(),
  type: Type.String(),
  category: Type.String(),
  active: Type.Boolean(),
  limitPerDay: Type.Union([Type.Integer(), Type.Null()]),
  limitPerMonth: Type.Union([Type.Integer(), Type.Null()]),
  filter: Type.Array(FilterItem),
  settings: Type.Record(Type.String(), Type.Unknown()),
  secrets: Type.Record(Type.String(), Type.Object({ set: Type.Boolean(), mask: Type.String() })),
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
});

export const TypeAnswer = Type.Object({
  type: Type.String(),
  category: Category,
  fields: Type.Array(
    Type.Object({
      name: Type.String(),
      label: Type.String(),
      kind: Type.String(),
      required: Type.Optional(Type.Boolean()),
      default: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
      options: Type.Optional(Type.Array(Type.String())),
      min: Type.Optional(Type.Number()),
      max: Type.Optional(Type.Number()),
      secret: Type.Boolean(),
    }),
  ),
});

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const VerifyAnswer = Type.Object({ ok: Type.Boolean(), message: Type.String() });

export const BalancesBody = Type.Union([
  Type.Object({ ids: Type.Array(Type.Integer(), { maxItems: 50 }) }),
  Type.Array(Type.Integer(), { maxItems: 50 }),
]);

export const BalanceAnswer = Type.Object({
  providerConfigId: Type.Integer(),
  balance: Type.Union([Type.Number(), Type.Null()]),
  currency: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  updatedAt: Type.Number(),
});

export const CountAnswer = Type.Object({ category: Type.String(), count: Type.Integer() });

export const BounceAddress = Type.Object({ address: Type.Union([Type.String({ maxLength: 254 }), Type.Null()]) });

export const ProviderOption = Type.Object({ providerConfigId: Type.Integer(), category: Type.String() });

export const GroupBody = Type.Object({
  id: Type.Optional(Type.Integer()),
  name: Type.String({ maxLength: 120 }),
  category: Category,
  configs: Type.Array(
    Type.Object({ providerConfigId: Type.Integer(), priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 99 })) }),
    {
      maxItems: 100,
    },
  ),
});

export const GroupAnswer = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  category: Type.String(),
  configs: Type.Array(
    Type.Object({
      providerConfigId: Type.Integer(),
      priority: Type.Integer(),
      name: Type.String(),
      type: Type.String(),
      active: Type.Boolean(),
    }),
  ),
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
});

export const PageQuery = Type.Object({
  category: Type.Optional(Category),
  page: Type.Integer({ minimum: 1, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
});

export const SandboxMessage = Type.Object({
  id: Type.Integer(),
  providerConfigId: Type.Integer(),
  category: Type.String(),
  recipient: Type.String(),
  subject: Type.Union([Type.String(), Type.Null()]),
  body: Type.String(),
  providerMessageId: Type.String(),
  status: Type.String(),
  createdAt: Type.Number(),
});
