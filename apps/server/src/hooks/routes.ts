/** Settings > Notifications: the Slack hook, a test post and the delivery log (under /api/data, see ARCHITECTURE.md). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sessionOf } from '../auth/guard.js';
import * as s from './schemas.js';
import type { HooksDeps } from './service.js';
import * as hooks from './service.js';

const BASE = '/api/data/hooks';

export const hookRoutes: FastifyPluginAsyncTypebox<HooksDeps> = async (app, deps) => {
  const tags = ['hooks'];

  app.get(
    `${BASE}/settings`,
    { schema: { tags, summary: 'Slack notification settings', response: { 200: s.HookSettings } } },
    async (request) => hooks.getSettings(deps, sessionOf(request).accountId),
  );

  app.put(
    `${BASE}/settings`,
    {
      schema: { tags, summary: 'Save Slack notification settings', body: s.HookSettingsBody, response: { 200: s.HookSettings } },
    },
    async (request) => hooks.saveSettings(deps, sessionOf(request).accountId, request.body),
  );

  app.post(
    `${BASE}/test`,
    {
      schema: {
        tags,
        summary: 'Post a test message to Slack now (the typed URL, else the saved one)',
        body: s.HookTestBody,
        response: { 200: s.HookTestAnswer },
      },
    },
    async (request) => hooks.sendTest(deps, sessionOf(request).accountId, request.body, request.lang),
  );

  app.get(
    `${BASE}/deliveries`,
    {
      schema: {
        tags,
        summary: 'The Slack delivery log, newest first',
        querystring: s.DeliveriesQuery,
        response: { 200: s.DeliveriesAnswer },
      },
    },
    async (request) => hooks.listDeliveries(deps, sessionOf(request).accountId, request.query.page, request.query.size),
  );
};
