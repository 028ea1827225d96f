/**
 * The security headers of every answer (helmet). The console is a static bundle of same-origin scripts, so scripts
 * are 'self' only; styles also allow inline ones because antd's CSS-in-JS injects <style> elements at run time and
 * the template previews (srcdoc frames, which inherit this policy) show e-mail HTML whose styles are inline.
 */
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** Paths that mail clients load from other origins (the open pixel among them). */
const TRACKING_PREFIX = '/t/';

export function contentSecurityDirectives(https: boolean): Record<string, string[]> {
  return {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    // Previewed e-mails show their images from wherever the template points.
    imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    // Only an https deployment can upgrade; on plain http it would break every same-origin request.
    ...(https ? { upgradeInsecureRequests: [] } : {}),
  };
}

export async function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): Promise<void> {
  const https = publicUrl.startsWith('https://');
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityDirectives(https) },
    // HSTS from a plain-http address means nothing; from https it keeps browsers on it for a year.
    strictTransportSecurity: https ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith(TRACKING_PREFIX)) reply.header('cross-origin-resource-policy', 'cross-origin');
  });
}
