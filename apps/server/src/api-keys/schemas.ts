/** Request and answer shapes of the console's API key screens. */
import { Type } from 'typebox';

export const API_KEY_SCOPES = ['send', 'read'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const DEFAULT_RATE_LIMIT = 100;
export const MAX_RATE_LIMIT = 10_000;

const Scope = Type.Union([Type.Literal('send'), Type.Literal('read')]);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const CreateKeyBody = Type.Object({
  name: Type.String({ maxLength: 100 }),
  scope: Scope,
  /** Requests per second; the default suits most integrations. */
  rateLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_RATE_LIMIT })),
});

export const KeyAnswer = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  scope: Scope,
  /** The first characters of the key, enough to tell keys apart. */
  keyStart: Type.String(),
  rateLimit: Type.Integer(),
  createdAt: Type.Number(),
  lastUsedAt: Nullable(Type.Number()),
  revokedAt: Nullable(Type.Number()),
});

/** The key itself appears in this answer only: it is stored hashed. */
export const CreatedKeyAnswer = Type.Object({ ...KeyAnswer.properties, key: Type.String() });

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
