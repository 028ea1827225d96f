/** Reference lists the console's forms need: time zones, languages, countries. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { COUNTRIES, LANGUAGE_ENTRIES, TIME_ZONES } from '@herald/shared/reference';

export const referenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['reference'];
  const cached = { 'cache-control': 'public, max-age=86400' };
  app.get(
    '/api/data/time-zones',
    { config: { public: true }, schema: { tags, summary: 'The 96 time-zone entries' } },
    async (_r, reply) => reply.headers(cached).send(TIME_ZONES),
  );
  app.get(
    '/api/data/languages',
    { config: { public: true }, schema: { tags, summary: 'ISO-639-1 languages' } },
    async (_r, reply) => reply.headers(cached).send(LANGUAGE_ENTRIES),
  );
  app.get(
    '/api/data/countries',
    { config: { public: true }, schema: { tags, summary: 'Countries with dial codes' } },
    async (_r, reply) => reply.headers(cached).send(COUNTRIES),
  );
};
