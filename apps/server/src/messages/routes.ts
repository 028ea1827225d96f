/** The public sending API under /api/v1, authenticated by API key (see api-keys/authenticate.ts). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type ApiKeyAuthDeps, apiKeyAuth, apiKeyOf } from '../api-keys/authenticate.js';
import { AppError } from '../http/errors.js';
import * as s from './schemas.js';
import * as messages from './service.js';
import { MessageWriter } from './writer.js';

export interface MessageRoutesDeps extends ApiKeyAuthDeps {
  /** Wakes the sending engine of this process, if it runs one. */
  notify: () => void;
}

/** A full batch of rich HTML is far over the console's default body limit. */
const BATCH_BODY_LIMIT = 32 * 1024 * 1024;
/** Longest an accepted message waits for the engine to look (it also polls on its own). */
const WAKE_MS = 20;

export const messageRoutes: FastifyPluginAsyncTypebox<MessageRoutesDeps> = async (app, deps) => {
  app.decorateRequest('apiKey', null);
  await deps.limiter.ready();
  const sending = { db: deps.db, writer: new MessageWriter(deps.db) };
  // The engine is woken at most once per WAKE_MS: a burst of calls is claimed in batches, not one claim per call.
  let wakeTimer: NodeJS.Timeout | undefined;
  const wakeEngine = () => {
    wakeTimer ??= setTimeout(() => {
      wakeTimer = undefined;
      deps.notify();
    }, WAKE_MS);
  };
  app.addHook('onClose', async () => clearTimeout(wakeTimer));
  const tags = ['messages'];
  const security = [{ apiKey: [] }];
  // The session guard lets these through; the API key hook is their guard.
  const config = { public: true };
  const errors = { 401: s.ApiError, 403: s.ApiError, 422: s.ApiError, 429: s.ApiError };

  app.post(
    '/api/v1/messages',
    {
      config,
      onRequest: apiKeyAuth(deps, 'send'),
      schema: {
        tags,
        security,
        summary: 'Send one message',
        description: 'Persists the message as unsent on the priority lane and answers its id; sending happens after.',
        headers: s.IdempotencyHeaders,
        body: s.MessageBody,
        response: { 202: s.AcceptedAnswer, ...errors },
      },
    },
    async (request, reply) => {
      const answer = await messages.sendOne(
        sending,
        apiKeyOf(request).accountId,
        request.body,
        request.headers['idempotency-key'],
      );
      wakeEngine();
      return reply.status(202).send(answer);
    },
  );

  app.post(
    '/api/v1/messages/batch',
    {
      config,
      bodyLimit: BATCH_BODY_LIMIT,
      onRequest: apiKeyAuth(deps, 'send'),
      // Too many messages is 413 (not a 400 schema failure), decided before the items are validated.
      preValidation: async (request) => {
        const body = request.body as { messages?: unknown } | null;
        if (Array.isArray(body?.messages) && body.messages.length > s.MAX_BATCH)
          throw new AppError(413, 'messages.batchTooLarge', { max: s.MAX_BATCH });
      },
      schema: {
        tags,
        security,
        summary: 'Send up to 1,000 messages at once, all or none',
        headers: s.IdempotencyHeaders,
        body: s.BatchBody,
        response: { 202: s.BatchAnswer, ...errors, 413: s.ApiError },
      },
    },
    async (request, reply) => {
      const answer = await messages.sendBatch(
        sending,
        apiKeyOf(request).accountId,
        request.body.messages,
        request.headers['idempotency-key'],
      );
      wakeEngine();
      return reply.status(202).send(answer);
    },
  );

  app.get(
    '/api/v1/messages/:id',
    {
      config,
      onRequest: apiKeyAuth(deps, 'read'),
      schema: {
        tags,
        security,
        summary: 'One message with its status history',
        params: s.IdParams,
        response: { 200: s.MessageAnswer, 401: s.ApiError, 404: s.ApiError, 429: s.ApiError },
      },
    },
    async (request) => messages.getMessage(deps.db, apiKeyOf(request).accountId, request.params.id, request.lang),
  );
};
