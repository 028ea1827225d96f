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
  await app.register(fastifyStatic, { root: dir, wildcard: false, maxAge: '1h', index: false });
  app.get('/*', { schema: { hide: true }, config: { public: true } }, (request, reply) => {
    if (request.url.startsWith('/api/')) return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { maxAge: 0 });
  });
  return true;
}
