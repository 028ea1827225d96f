/** Provider configuration, group, balance and option routes at the spec's paths (section 7). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sessionOf } from '../auth/guard.js';
import { invalidField } from '../http/errors.js';
import * as s from './schemas.js';
import type { ProvidersDeps } from './service.js';
import * as providers from './service.js';

const CONFIGS = '/api/data/provider-configurations';
const GROUPS = '/api/provider-configurations/groups';

export const providerRoutes: FastifyPluginAsyncTypebox<ProvidersDeps> = async (app, deps) => {
  const tags = ['providers'];
  const account = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).accountId;

  app.get(
    `${CONFIGS}/types`,
    { schema: { tags, summary: 'Provider types with the fields each needs', response: { 200: Type.Array(s.TypeAnswer) } } },
    async () => providers.listTypes(),
  );

  app.get(
    `${CONFIGS}/custom`,
    {
      schema: {
        tags,
        summary: "The account's provider configs",
        querystring: Type.Object({ category: Type.Optional(s.Category) }),
        response: { 200: Type.Array(s.ConfigAnswer) },
      },
    },
    async (request) => providers.listConfigs(deps, account(request), request.query.category),
  );

  app.get(
    `${CONFIGS}/counts`,
    { schema: { tags, summary: 'Config count per category', response: { 200: Type.Array(s.CountAnswer) } } },
    async (request) => providers.configCounts(deps, account(request)),
  );

  app.get(
    `${CONFIGS}/bounce-address`,
    { schema: { tags, summary: 'The SMTP bounce address', response: { 200: s.BounceAddress } } },
    async (request) => providers.bounceAddress(deps, account(request)),
  );

  app.put(
    `${CONFIGS}/bounce-address`,
    { schema: { tags, summary: 'Set the SMTP bounce address', body: s.BounceAddress, response: { 200: s.BounceAddress } } },
    async (request) => {
      const address = request.body.address?.trim() || null;
      if (address && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address))
        throw invalidField('address', { key: 'validation.invalidEmail' });
      await providers.setBounceAddress(deps, account(request), address);
      return { address };
    },
  );

  app.get(
    `${CONFIGS}/:id`,
    { schema: { tags, summary: 'One provider config', params: s.IdParams, response: { 200: s.ConfigAnswer } } },
    async (request) => providers.getConfig(deps, account(request), request.params.id),
  );

  app.post(
    CONFIGS,
    { schema: { tags, summary: 'Create a provider config', body: s.ConfigBody, response: { 200: s.ConfigAnswer } } },
    async (request) => providers.createConfig(deps, account(request), request.body),
  );

  app.put(
    CONFIGS,
    {
      schema: {
        tags,
        summary: 'Update a provider config (id in the body; blank secrets are kept)',
        body: s.ConfigBody,
        response: { 200: s.ConfigAnswer },
      },
    },
    async (request) => {
      if (request.body.id === undefined) throw invalidField('id', { key: 'validation.mandatory' });
      return providers.updateConfig(deps, account(request), request.body.id, request.body);
    },
  );

  app.delete(
    `${CONFIGS}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a provider config',
        params: s.IdParams,
        response: { 200: Type.Object({ status: Type.String() }) },
      },
    },
    async (request) => {
      await providers.deleteConfig(deps, account(request), request.params.id);
      return { status: 'ok' };
    },
  );

  app.post(
    `${CONFIGS}/test`,
    {
      schema: {
        tags,
        summary: 'Test connection: connects and authenticates with these settings (stored secrets fill blanks)',
        body: s.ConfigBody,
        response: { 200: s.VerifyAnswer },
      },
    },
    async (request) => providers.testConnection(deps, account(request), request.body),
  );

  app.post(
    `${CONFIGS}/balances`,
    {
      schema: {
        tags,
        summary: 'Balances of at most the first 5 configs (cached for a minute)',
        body: s.BalancesBody,
        response: { 200: Type.Array(s.BalanceAnswer) },
      },
    },
    async (request) => providers.balances(deps, account(request), Array.isArray(request.body) ? request.body : request.body.ids),
  );

  app.get(
    '/api/data/user-provider-options',
    { schema: { tags, summary: 'The default config per category', response: { 200: Type.Array(s.ProviderOption) } } },
    async (request) => providers.providerOptions(deps, account(request)),
  );

  app.post(
    '/api/data/user-provider-options',
    {
      schema: {
        tags,
        summary: "Make a config its category's default",
        body: Type.Object({ providerConfigId: Type.Integer() }),
        response: { 200: Type.Array(s.ProviderOption) },
      },
    },
    async (request) => providers.setProviderOption(deps, account(request), request.body.providerConfigId),
  );

  app.get(
    GROUPS,
    {
      schema: {
        tags,
        summary: 'Provider groups, configs sorted by priority',
        querystring: s.PageQuery,
        response: { 200: Type.Object({ total: Type.Integer(), items: Type.Array(s.GroupAnswer) }) },
      },
    },
    async (request) => providers.listGroups(deps, account(request), request.query),
  );

  app.get(
    `${GROUPS}/short-info`,
    {
      schema: {
        tags,
        summary: 'Group ids and names',
        querystring: Type.Object({ category: Type.Optional(s.Category) }),
        response: { 200: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), category: Type.String() })) },
      },
    },
    async (request) => providers.groupShortInfo(deps, account(request), request.query.category),
  );

  app.get(
    `${GROUPS}/:id`,
    { schema: { tags, summary: 'One provider group', params: s.IdParams, response: { 200: s.GroupAnswer } } },
    async (request) => providers.getGroup(deps, account(request), request.params.id),
  );

  app.post(
    GROUPS,
    { schema: { tags, summary: 'Create a provider group', body: s.GroupBody, response: { 200: s.GroupAnswer } } },
    async (request) => providers.createGroup(deps, account(request), request.body),
  );

  app.put(
    GROUPS,
    {
      schema: { tags, summary: 'Update a provider group (id in the body)', body: s.GroupBody, response: { 200: s.GroupAnswer } },
    },
    async (request) => {
      if (request.body.id === undefined) throw invalidField('id', { key: 'validation.mandatory' });
      return providers.updateGroup(deps, account(request), request.body.id, request.body);
    },
  );

  app.delete(
    `${GROUPS}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a provider group',
        params: s.IdParams,
        response: { 200: Type.Object({ status: Type.String() }) },
      },
    },
    async (request) => {
      await providers.deleteGroup(deps, account(request), request.params.id);
      return { status: 'ok' };
    },
  );

  app.get(
    '/api/data/sandbox/messages',
    {
      schema: {
        tags,
        summary: 'What the sandbox providers kept (the inbox screen)',
        querystring: s.PageQuery,
        response: { 200: Type.Object({ total: Type.Integer(), items: Type.Array(s.SandboxMessage) }) },
      },
    },
    async (request) => providers.sandboxInbox(deps, account(request), request.query),
  );
};
