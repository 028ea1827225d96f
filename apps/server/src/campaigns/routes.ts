/** Campaign routes under /api/data/campaigns (the spec does not show them; they follow its style). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sessionOf } from '../auth/guard.js';
import * as s from './schemas.js';
import type { CampaignsDeps } from './service.js';
import * as campaigns from './service.js';

const BASE = '/api/data/campaigns';
const PROGRESS_EVERY_MS = 1000;
/** Campaigns that changed this recently are sent too, so a bar reaches 100 % before it stops updating. */
const PROGRESS_RECENT_MS = 10_000;

export const campaignRoutes: FastifyPluginAsyncTypebox<CampaignsDeps> = async (app, deps) => {
  const tags = ['campaigns'];
  const config = { roles: ['site' as const, 'admin' as const] };
  const account = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).accountId;

  app.get(
    BASE,
    {
      config,
      schema: {
        tags,
        summary: 'Campaigns with their state and counts per status',
        querystring: s.ListQuery,
        response: { 200: Type.Object({ total: Type.Integer(), items: Type.Array(s.CampaignAnswer) }) },
      },
    },
    async (request) => campaigns.listCampaigns(deps, account(request), request.query, request.lang),
  );

  app.post(
    BASE,
    { config, schema: { tags, summary: 'Create a draft campaign', body: s.CampaignBody, response: { 200: s.CampaignAnswer } } },
    async (request) => campaigns.createCampaign(deps, account(request), request.body, request.lang),
  );

  app.get(
    `${BASE}/:id`,
    { config, schema: { tags, summary: 'One campaign', params: s.IdParams, response: { 200: s.CampaignAnswer } } },
    async (request) => campaigns.getCampaign(deps, account(request), request.params.id, request.lang),
  );

  app.put(
    `${BASE}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Change a draft or scheduled campaign',
        params: s.IdParams,
        body: s.CampaignBody,
        response: { 200: s.CampaignAnswer },
      },
    },
    async (request) => campaigns.updateCampaign(deps, account(request), request.params.id, request.body, request.lang),
  );

  app.delete(
    `${BASE}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Delete a campaign that is not sending',
        params: s.IdParams,
        response: { 200: Type.Object({ status: Type.String() }) },
      },
    },
    async (request) => {
      await campaigns.deleteCampaign(deps, account(request), request.params.id);
      return { status: 'ok' };
    },
  );

  app.get(
    `${BASE}/:id/check`,
    {
      config,
      schema: {
        tags,
        summary: 'Recipients after suppression and SMS parts',
        params: s.IdParams,
        response: { 200: s.CheckAnswer },
      },
    },
    async (request) => campaigns.checkCampaign(deps, account(request), request.params.id),
  );

  app.post(
    `${BASE}/:id/start`,
    {
      config,
      schema: {
        tags,
        summary: 'Send now or schedule',
        params: s.IdParams,
        body: s.StartBody,
        response: { 200: s.CampaignAnswer },
      },
    },
    async (request) => campaigns.startCampaign(deps, account(request), request.params.id, request.body.scheduledAt, request.lang),
  );

  for (const action of ['pause', 'resume', 'cancel'] as const) {
    app.post(
      `${BASE}/:id/${action}`,
      {
        config,
        schema: {
          tags,
          summary: `${action[0]!.toUpperCase()}${action.slice(1)} the campaign`,
          params: s.IdParams,
          response: { 200: s.CampaignAnswer },
        },
      },
      async (request) => campaigns.changeState(deps, account(request), request.params.id, action, request.lang),
    );
  }

  app.post(
    `${BASE}/:id/duplicate`,
    {
      config,
      schema: { tags, summary: 'Copy the campaign as a new draft', params: s.IdParams, response: { 200: s.CampaignAnswer } },
    },
    async (request) => campaigns.duplicateCampaign(deps, account(request), request.params.id, request.lang),
  );

  app.get(
    `${BASE}/progress`,
    {
      config,
      schema: {
        tags,
        summary: 'Server-sent events: every second, the state and counts of the campaigns that are running or just changed',
        produces: ['text/event-stream'],
      },
    },
    async (request, reply) => {
      const accountId = account(request);
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      let open = true;
      request.raw.on('close', () => {
        open = false;
      });
      while (open) {
        const running = await campaigns.campaignProgress(deps, accountId, Date.now() - PROGRESS_RECENT_MS);
        reply.raw.write(`data: ${JSON.stringify({ campaigns: running })}\n\n`);
        await new Promise((resolve) => setTimeout(resolve, PROGRESS_EVERY_MS));
      }
    },
  );

  app.get(
    `${BASE}/:id/messages`,
    {
      config,
      schema: {
        tags,
        summary: "The campaign's message log",
        params: s.IdParams,
        querystring: s.LogQuery,
        response: { 200: s.LogAnswer },
      },
    },
    async (request) => campaigns.campaignLog(deps, account(request), request.params.id, request.query, request.lang),
  );
};
