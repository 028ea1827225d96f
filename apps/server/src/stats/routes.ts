/**
 * Statistics under /api/data/statistics/{channel} (reports and their CSV), the console's message log under
 * /api/data/messages, and the dashboard's figures under /api/data/dashboard. Every query is the session's account's.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sessionOf } from '../auth/guard.js';
import { zoneOfAccount } from './days.js';
import * as s from './schemas.js';
import * as stats from './service.js';

export const statsRoutes: FastifyPluginAsyncTypebox<stats.StatsDeps> = async (app, deps) => {
  const tags = ['statistics'];
  const context = (request: Parameters<typeof sessionOf>[0]) => {
    const session = sessionOf(request);
    return { accountId: session.accountId, zone: zoneOfAccount(session.timeZoneId) };
  };

  app.get(
    '/api/data/statistics/:channel/reports',
    {
      schema: {
        tags,
        summary:
          "Messages per day (the account's time-zone days), status, provider config and campaign, from the daily and hourly rollups",
        params: s.ChannelParams,
        querystring: s.ReportQuery,
        response: { 200: s.ReportAnswer },
      },
    },
    async (request) => {
      const { accountId, zone } = context(request);
      return stats.report(deps, accountId, zone, request.params.channel, request.query);
    },
  );

  app.get(
    '/api/data/statistics/:channel/reports.csv',
    {
      schema: {
        tags,
        summary: 'The same report as CSV: per day, the total, per config and per campaign, one column per status',
        params: s.ChannelParams,
        querystring: s.ReportQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { accountId, zone } = context(request);
      const result = await stats.report(deps, accountId, zone, request.params.channel, request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="herald-${request.params.channel}-${result.from}-${result.to}.csv"`)
        .send(stats.reportCsv(result));
    },
  );

  app.get(
    '/api/data/messages/:channel',
    {
      schema: {
        tags,
        summary: 'The message log of one channel, newest first, filtered and paged; the count stops at 10,000',
        params: s.ChannelParams,
        querystring: s.LogQuery,
        response: { 200: s.LogAnswer },
      },
    },
    async (request) => {
      const { accountId, zone } = context(request);
      return stats.messageLog(deps, accountId, zone, request.params.channel, request.query, request.lang);
    },
  );

  app.get(
    '/api/data/messages/:channel/:id',
    {
      schema: {
        tags,
        summary: 'One message of the log with its status history',
        params: Type.Object({ ...s.ChannelParams.properties, ...s.IdParams.properties }),
        response: { 200: s.MessageAnswer },
      },
    },
    async (request) =>
      stats.logMessage(deps, context(request).accountId, request.params.channel, request.params.id, request.lang),
  );

  app.get(
    '/api/data/dashboard',
    {
      schema: {
        tags,
        summary: 'Messages today and over 7 days, the delivery rate, running campaigns and a 7-day series',
        response: { 200: s.DashboardAnswer },
      },
    },
    async (request) => {
      const { accountId, zone } = context(request);
      return stats.dashboard(deps, accountId, zone);
    },
  );
};
