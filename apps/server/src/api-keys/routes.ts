/** The console's API key screens under /api/data/api-keys (API profile). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sessionOf } from '../auth/guard.js';
import type { Db } from '../db/database.js';
import * as s from './schemas.js';
import * as keys from './service.js';

const BASE = '/api/data/api-keys';

export const apiKeyRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  const tags = ['api-keys'];
  const config = { roles: ['api' as const, 'admin' as const] };
  const account = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).accountId;

  app.get(
    BASE,
    {
      config,
      schema: {
        tags,
        summary: "The account's API keys, revoked ones included",
        response: { 200: Type.Object({ items: Type.Array(s.KeyAnswer) }) },
      },
    },
    async (request) => ({ items: await keys.listKeys(db, account(request)) }),
  );

  app.post(
    BASE,
    {
      config,
      schema: {
        tags,
        summary: 'Create an API key; the answer is the only time the key is shown',
        body: s.CreateKeyBody,
        response: { 200: s.CreatedKeyAnswer },
      },
    },
    async (request) => keys.createKey(db, account(request), request.body),
  );

  app.delete(
    `${BASE}/:id`,
    {
      config,
      schema: { tags, summary: 'Revoke an API key at once', params: s.IdParams, response: { 200: s.KeyAnswer } },
    },
    async (request) => keys.revokeKey(db, account(request), request.params.id),
  );
};
