/** Serves the built console; every non-API path falls back to index.html for the client router. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const CONSOLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

export async function registerConsole(app: FastifyInstance, dir = CONSOLE_DIR): Promise<boolean> {
  if (!existsSync(path.join(dir, 'index.html'))) {
    app.log.warn({ dir }, 'console build not found: run `npm run build` to serve the console');
    return false;
  }
  // Files are looked up on each request, so a console rebuilt under a running server is served at once.
  await app.register(fastifyStatic, { root: dir, serve: false });
  await app.register(fastifyStatic, {
    root: path.join(dir, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    maxAge: '365d',
    immutable: true,
    index: false,
  });
  await app.register(fastifyStatic, {
    root: path.join(dir, 'avatars'),
    prefix: '/avatars/',
    decorateReply: false,
    maxAge: '1d',
    index: false,
  });
  app.get('/favicon.svg', { schema: { hide: true }, config: { public: true } }, (_request, reply) =>
    reply.sendFile('favicon.svg', { maxAge: 86_400_000 }),
  );
  app.get('/*', { schema: { hide: true }, config: { public: true } }, (request, reply) => {
    if (request.url.startsWith('/api/')) return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { maxAge: 0 });
  });
  return true;
}
