/** Shapes of the public sending API (/api/v1/messages), as the #7 contract gives them. */
import { MESSAGE_STATUSES } from '@herald/shared';
import { Type } from 'typebox';

export const MAX_BATCH = 1000;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Status = Type.Unsafe<string>({ type: 'string', enum: [...MESSAGE_STATUSES] });
const Channel = Type.Union([Type.Literal('email'), Type.Literal('sms')]);

export const MessageBody = Type.Object(
  {
    channel: Channel,
    to: Type.String({
      minLength: 1,
      maxLength: 320,
      description: 'An e-mail address, or a phone number in international format (+380501234567).',
    }),
    template: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "The name of one of the account's templates; give this or content.",
      }),
    ),
    content: Type.Optional(
      Type.Object(
        {
          subject: Type.Optional(Type.String({ maxLength: 998 })),
          html: Type.Optional(Type.String()),
          text: Type.Optional(Type.String()),
        },
        { description: 'The message itself instead of a template: e-mail needs subject and html or text, SMS needs text.' },
      ),
    ),
    variables: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          "Values the template reads as {{ contact.attributes.<name> }}, and as {{ vars.<name> }} over the account's variable of that name.",
      }),
    ),
    groupId: Type.Optional(Type.Integer({ minimum: 1, description: 'Send through this provider group, in its priority order.' })),
    configId: Type.Optional(Type.Integer({ minimum: 1, description: 'Send through this one provider configuration.' })),
    sendAt: Type.Optional(Type.String({ format: 'date-time', description: 'Do not send before this time.' })),
    locale: Type.Optional(
      Type.String({
        maxLength: 35,
        // A BCP 47 language, script and region such as en, uk-UA, es-419 or zh-Hant-TW.
        pattern: '^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?$',
        description: "The recipient's locale (a BCP 47 tag such as en-GB), kept with the message.",
      }),
    ),
  },
  { description: 'One message: exactly one of template and content.' },
);

export const BatchBody = Type.Object({ messages: Type.Array(MessageBody, { minItems: 1, maxItems: MAX_BATCH }) });

export const AcceptedAnswer = Type.Object({
  id: Type.Integer(),
  status: Type.Literal('unsent'),
  channel: Channel,
  to: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});

export const BatchAnswer = Type.Object({ messages: Type.Array(AcceptedAnswer) });

export const MessageAnswer = Type.Object({
  id: Type.Integer(),
  channel: Channel,
  to: Type.String(),
  status: Status,
  template: Nullable(Type.String()),
  configId: Nullable(Type.Integer()),
  providerMessageId: Nullable(Type.String()),
  attempts: Type.Integer(),
  locale: Nullable(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  history: Type.Array(
    Type.Object({
      status: Status,
      at: Type.String({ format: 'date-time' }),
      detail: Nullable(Type.String()),
      configId: Nullable(Type.Integer()),
    }),
  ),
});

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'A retry with the same key and body answers the first answer again and sends nothing new.',
    }),
  ),
});

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const ApiError = Type.Object({
  statusCode: Type.Integer(),
  key: Type.String(),
  message: Type.String(),
  fields: Type.Optional(Type.Array(Type.Object({ field: Type.String(), key: Type.String(), message: Type.String() }))),
});
