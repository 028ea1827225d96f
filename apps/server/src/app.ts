/** Builds the Fastify application: external plugins first, then Herald's own domains. */
import { hostname } from 'node:os';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { KeyRateLimiter } from './api-keys/rate-limit.js';
import { apiKeyRoutes } from './api-keys/routes.js';
import { AddressThrottle } from './auth/address-throttle.js';
import { sessionGuard } from './auth/guard.js';
import { authRoutes } from './auth/routes.js';
import type { AuthDeps } from './auth/service.js';
import { startBounceListener } from './campaigns/bounces.js';
import { CampaignContent } from './campaigns/content.js';
import { campaignRoutes } from './campaigns/routes.js';
import { CampaignSupervisor } from './campaigns/supervisor.js';
import { Tracking } from './campaigns/tracking.js';
import { trackingRoutes } from './campaigns/tracking-routes.js';
import { type Config, DEFAULT_FEEDBACK_PER_HOUR, DEFAULT_SIGNUPS_PER_HOUR, DEFAULT_TRUST_PROXY } from './config.js';
import { registerConsole } from './console/static.js';
import { contactRoutes } from './contacts/routes.js';
import { checkDatabase, type DatabaseHandle } from './db/database.js';
import { Dispatcher } from './engine/dispatcher.js';
import { wakeLimitWaits } from './engine/limits.js';
import { EngineThreads } from './engine/threads.js';
import { feedbackRoutes } from './feedback/routes.js';
import { hookRoutes } from './hooks/routes.js';
import { type HooksDeps, listen as listenForHookEvents } from './hooks/service.js';
import { HookWorker } from './hooks/worker.js';
import { registerErrorHandler } from './http/error-handler.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { validatorCompiler } from './http/validation.js';
import { ApiTemplateContent } from './messages/content.js';
import { messageRoutes } from './messages/routes.js';
import { ChannelPool } from './providers/channel-pool.js';
import { providerRoutes } from './providers/routes.js';
import { balances, listConfigs, type ProvidersDeps, seedSandboxProviders } from './providers/service.js';
import { referenceRoutes } from './reference/routes.js';
import { ssoRoutes } from './sso/routes.js';
import { SsoClient } from './sso/service.js';
import { statsRoutes } from './stats/routes.js';
import { systemMailRoutes } from './system-mail/routes.js';
import { SystemMailer } from './system-mail/service.js';
import { templateRoutes } from './templates/routes.js';
import { WebhookDelivery } from './webhooks/delivery.js';
import { webhookRoutes } from './webhooks/routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Live provider channels, shared by the API (test connection, balances) and the sending engine. */
    channels: ChannelPool;
    /** The sending loop; started only in processes that run workers. */
    engine: Dispatcher;
    /** Starts scheduled campaigns, materialises recipients and closes finished campaigns. */
    campaigns: CampaignSupervisor;
    /** Signs the open, click, unsubscribe and bounce links of campaign e-mail. */
    tracking: Tracking;
    /** Posts queued Slack notifications; started only in processes that run workers. */
    notifications: HookWorker;
  }
}

/** How long a worker may hold a batch before its messages return to the queue (both queues). */
const DISPATCH_LEASE_MS = 120_000;

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  logger?: FastifyServerOptions['logger'];
  /** Serve the built console from apps/web/dist (off in API tests). */
  serveConsole?: boolean;
  /** Run the sending loop in this process (herald serve and herald worker). */
  runWorkers?: boolean;
  /** SQLite only: the sending loop runs in this many worker threads of this process, each with its own connection. */
  engineThreads?: { count: number; sqliteFile: string };
  /**
   * SQLite only: hand back every lease at start, as after a crash. Only the data directory's owner may (lib/data-dir-lock.ts);
   * another process sharing the file waits for leases to run out.
   */
  recoverLeases?: boolean;
}

export async function buildApp({
  config,
  database,
  logger = false,
  serveConsole = false,
  runWorkers = false,
  engineThreads,
  recoverLeases = true,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy ?? DEFAULT_TRUST_PROXY,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // A POST saying JSON but carrying nothing (curl -H 'Content-Type: application/json' on pause) has no body, not a malformed one.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined);
    else parseJson(request, body as string, done);
  });
  const { db } = database;

  registerErrorHandler(app, config.bodyLimitBytes);
  await registerSecurityHeaders(app, config.publicUrl);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Herald API', version: '0.1.0', description: 'Multi-channel (email + SMS) messaging service' },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'X-Token' },
          apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (hk_…); X-Api-Key: <key> is accepted too' },
        },
      },
      security: [{ token: [] }],
    },
  });
  await app.register(fastifyFormbody);
  await app.register(fastifyMultipart, { limits: { fileSize: 5 * 1024 * 1024, files: 10, fields: 20 } });
  await app.register(sessionGuard, { db, sessionIdleMs: config.sessionIdleDays * 24 * 60 * 60 * 1000 });

  const pool = new ChannelPool(db, config.secret);
  app.decorate('channels', pool);
  const tracking = new Tracking(config.secret, config.publicUrl);
  // Scale mode is on with Redis and PostgreSQL: BullMQ jobs replace the dispatcher's own claiming loops.
  // Imported only where used: their Redis, BullMQ and PostgreSQL clients would add ~20 MB to an embedded install.
  const scale =
    config.redisUrl && database.dialect === 'postgres'
      ? new (await import('./scale/mode.js')).ScaleMode({
          redisUrl: config.redisUrl,
          prefix: config.redisPrefix ?? 'herald',
          database,
          leaseMs: config.leaseMs ?? DISPATCH_LEASE_MS,
          log: app.log,
        })
      : undefined;
  const schedulerLock =
    database.dialect === 'postgres' && config.databaseUrl
      ? new (await import('./scale/lock.js')).SchedulerLock({
          databaseUrl: config.databaseUrl,
          schema: database.schema,
          log: app.log,
        })
      : undefined;
  const threaded = engineThreads !== undefined && database.dialect === 'sqlite';
  // The engine threads checkpoint the WAL (engine/thread.ts): copying it back and syncing the file stalls the caller.
  if (threaded) await sql`pragma wal_autocheckpoint = 0`.execute(db);
  // The engine ran out of messages: a campaign it sent may be finished, which the supervisor marks now, not at its next tick.
  const finishCampaigns = () => supervisor.poke();
  const engine = new Dispatcher({
    db,
    dialect: database.dialect,
    pool,
    content: new ApiTemplateContent(db, new CampaignContent(db, tracking)),
    owner: `${hostname()}:${process.pid}`,
    recoverLeasesOnStart: recoverLeases && database.dialect === 'sqlite',
    leaseMs: config.leaseMs ?? DISPATCH_LEASE_MS,
    ...(scale ? { concurrency: 0, throttle: (route, count) => scale.throttle(route, count) } : {}),
    ...(threaded
      ? {
          threads: new EngineThreads(
            engineThreads.count,
            {
              sqliteFile: engineThreads.sqliteFile,
              writeGate: database.writeGate!.shared,
              secret: config.secret,
              publicUrl: config.publicUrl,
              owner: `${hostname()}:${process.pid}`,
              leaseMs: config.leaseMs ?? DISPATCH_LEASE_MS,
            },
            app.log,
            finishCampaigns,
          ),
        }
      : {}),
    onDrained: finishCampaigns,
    log: app.log,
  });
  const wakeEngine = scale ? () => scale.wake() : () => engine.notify();
  const supervisor = new CampaignSupervisor({ db, notify: wakeEngine, lock: schedulerLock, log: app.log });
  app.decorate('engine', engine);
  app.decorate('campaigns', supervisor);
  app.decorate('tracking', tracking);
  const notifications = new HookWorker({
    db,
    secretKey: config.secret,
    log: app.log,
    checkBalances: async (accountId) => {
      const configs = await listConfigs(providerDeps, accountId);
      await balances(
        providerDeps,
        accountId,
        configs.map((c) => c.id),
      );
    },
  });
  app.decorate('notifications', notifications);
  const hooksDeps: HooksDeps = { db, secretKey: config.secret, log: app.log, onQueued: () => notifications.notify() };
  const stopListening = listenForHookEvents(hooksDeps);
  const webhookDelivery = new WebhookDelivery({
    db,
    dialect: database.dialect,
    secretKey: config.secret,
    log: app.log,
    allowPrivateTargets: config.webhookPrivateTargets ?? false,
  });
  const keyRateLimiter = KeyRateLimiter.create(config, database);
  let bounceListener: { close(): Promise<void> } | undefined;
  if (runWorkers) {
    app.addHook('onReady', async () => {
      await engine.start();
      schedulerLock?.start();
      if (scale && schedulerLock) await scale.start(engine, schedulerLock);
      supervisor.start();
      notifications.start();
      webhookDelivery.start();
      if (config.bounceSmtpPort !== undefined) {
        bounceListener = startBounceListener({ db, tracking, port: config.bounceSmtpPort, host: config.host, log: app.log });
      }
    });
  }
  app.addHook('onClose', async () => {
    await bounceListener?.close();
    await supervisor.stop();
    await scale?.close();
    await engine.stop();
    await schedulerLock?.stop();
    await webhookDelivery.stop();
    await keyRateLimiter.close();
    stopListening();
    await notifications.stop();
    await pool.closeAll();
  });
  const providerDeps: ProvidersDeps = {
    db,
    pool,
    secretKey: config.secret,
    onRoutesChanged: (accountId) => {
      wakeLimitWaits(db, accountId)
        .then((woken) => woken > 0 && engine.notify())
        .catch((error: unknown) => app.log.error({ err: error, accountId }, 'waking messages waiting for a limit failed'));
    },
  };
  const mailer = new SystemMailer(db, app.log);
  const authDeps: AuthDeps = {
    db,
    dialect: database.dialect,
    dataDir: config.dataDir,
    mailer,
    publicUrl: config.publicUrl,
    signupThrottle: new AddressThrottle(db, 'signup', config.signupsPerHour ?? DEFAULT_SIGNUPS_PER_HOUR),
    onAccountCreated: config.seed ? (accountId) => seedSandboxProviders(providerDeps, accountId) : undefined,
  };
  await app.register(authRoutes, authDeps);
  await app.register(ssoRoutes, {
    client: config.oidc
      ? new SsoClient({ config: config.oidc, auth: authDeps, redirectUri: `${config.publicUrl}/authredirect` })
      : undefined,
    label: config.oidc?.label,
    secureCookie: config.publicUrl.startsWith('https:'),
  });
  await app.register(providerRoutes, providerDeps);
  await app.register(hookRoutes, hooksDeps);
  // A started or resumed campaign is materialised now, not at the supervisor's next tick.
  await app.register(campaignRoutes, {
    db,
    notify: () => {
      supervisor.poke();
      wakeEngine();
    },
  });
  await app.register(trackingRoutes, { db, tracking });
  await app.register(feedbackRoutes, {
    db,
    dataDir: config.dataDir,
    throttle: new AddressThrottle(db, 'feedback', config.feedbackPerHour ?? DEFAULT_FEEDBACK_PER_HOUR),
  });
  await app.register(referenceRoutes);
  await app.register(systemMailRoutes, { db });
  await app.register(templateRoutes, { db, pool });
  await app.register(statsRoutes, { db });
  await app.register(apiKeyRoutes, { db });
  await app.register(webhookRoutes, { db, secretKey: config.secret, delivery: webhookDelivery });
  await app.register(messageRoutes, { db, limiter: keyRateLimiter, notify: wakeEngine });
  await app.register(contactRoutes, {
    db,
    dialect: database.dialect,
    holdConnection: database.holdConnection,
    dataDir: config.dataDir,
    importMaxBytes: config.importMaxBytes,
  });

  app.get(
    '/api/health',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Server status: down (503) when the database, or in scale mode Redis, does not answer',
        response: { 200: Type.Object({ status: Type.Literal('up') }), 503: Type.Object({ status: Type.Literal('down') }) },
      },
    },
    async (_request, reply) =>
      (await checkDatabase(db)) && (scale?.redisReachable() ?? true)
        ? { status: 'up' as const }
        : reply.status(503).send({ status: 'down' as const }),
  );
  app.get('/api/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  if (serveConsole) await registerConsole(app);
  return app;
}
