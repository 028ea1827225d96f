/** The console's status webhook screens under /api/data/webhooks (API profile). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sessionOf } from '../auth/guard.js';
import * as s from './schemas.js';
import type { WebhooksDeps } from './service.js';
import * as webhooks from './service.js';

const BASE = '/api/data/webhooks';

export const webhookRoutes: FastifyPluginAsyncTypebox<WebhooksDeps> = async (app, deps) => {
  const tags = ['webhooks'];
  const config = { roles: ['api' as const, 'admin' as const] };
  const account = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).accountId;

  app.get(
    BASE,
    { config, schema: { tags, summary: "The account's status webhook", response: { 200: s.WebhookAnswer } } },
    async (request) => webhooks.getWebhook(deps.db, account(request)),
  );

  app.put(
    BASE,
    {
      config,
      schema: {
        tags,
        summary: 'Set the webhook URL; the first save answers the signing secret, once',
        body: s.WebhookBody,
        response: { 200: s.SavedWebhookAnswer },
      },
    },
    async (request) => webhooks.saveWebhook(deps, account(request), request.body),
  );

  app.delete(
    BASE,
    {
      config,
      schema: { tags, summary: 'Remove the webhook', response: { 200: Type.Object({ status: Type.String() }) } },
    },
    async (request) => {
      await webhooks.deleteWebhook(deps.db, account(request));
      return { status: 'ok' };
    },
  );

  app.post(
    `${BASE}/secret`,
    {
      config,
      schema: {
        tags,
        summary: 'Replace the signing secret; the answer is the only time it is shown',
        response: { 200: s.SecretAnswer },
      },
    },
    async (request) => webhooks.rotateSecret(deps, account(request)),
  );

  app.post(
    `${BASE}/test`,
    {
      config,
      schema: { tags, summary: 'Send a webhook.test event now and answer its delivery', response: { 200: s.DeliveryAnswer } },
    },
    async (request) => webhooks.sendTestEvent(deps, account(request)),
  );

  app.get(
    `${BASE}/deliveries`,
    {
      config,
      schema: {
        tags,
        summary: 'Delivery log, newest first',
        querystring: s.DeliveriesQuery,
        response: { 200: Type.Object({ total: Type.Integer(), items: Type.Array(s.DeliveryAnswer) }) },
      },
    },
    async (request) => webhooks.listDeliveries(deps.db, account(request), request.query),
  );
};
