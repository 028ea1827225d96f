/**
 * The security headers of every answer (helmet). The console is a static bundle of same-origin scripts, so scripts
 * are 'self' only; styles also allow inline ones because antd's CSS-in-JS injects <style> elements at run time and
 * the template previews (srcdoc frames, which inherit this policy) show e-mail HTML whose styles are inline.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

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

/**
 * The headers helmet sets for these options, computed once: the options never change per request, and
 * @fastify/helmet built helmet's middleware again for every request (0.18 of the send API's 0.46 ms on its thread).
 */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

export async function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): Promise<void> {
  const https = publicUrl.startsWith('https://');
  const headers = helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityDirectives(https) },
    // HSTS from a plain-http address means nothing; from https it keeps browsers on it for a year.
    strictTransportSecurity: https ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    if (request.url.startsWith(TRACKING_PREFIX)) reply.header('cross-origin-resource-policy', 'cross-origin');
    done();
  });
}
