/**
 * The security headers (helmet's) on every answer: the content security policy, HSTS,
 * X-Frame-Options, nosniff and the rest, as helmet makes them from the options below.
 *
 * None of them depends on the request (no nonces, no directive computed per request), so
 * helmet is run once, at start, on a stand-in response and each answer gets the headers it
 * set. @fastify/helmet instead rebuilds helmet from its options on every request (parsing
 * the policy again each time), about a quarter of a bare route's whole cost.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

export const SECURITY_HEADER_OPTIONS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'blob:', 'mediastream:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      scriptSrc: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  // The camera screen needs the camera and location of this origin.
  crossOriginEmbedderPolicy: false,
};

/** What helmet does to a response with these options: the headers it sets, in order, and those it removes. */
export function securityHeaders(options: Readonly<HelmetOptions>): { set: Array<[string, string]>; removed: string[] } {
  const set: Array<[string, string]> = [];
  const removed: string[] = [];
  const response = {
    setHeader(name: string, value: string) {
      set.push([name, value]);
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  let finished = false;
  // helmet's middleware is synchronous: `finished` says it ran to its end.
  helmet({ ...options })({} as IncomingMessage, response as unknown as ServerResponse, () => {
    finished = true;
  });
  if (!finished) throw new Error('helmet did not finish synchronously');
  return { set, removed };
}

async function securityHeadersPlugin(app: FastifyInstance) {
  const { set, removed } = securityHeaders(SECURITY_HEADER_OPTIONS);
  // On the raw response, as helmet itself sets them: the same names, values and order.
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const name of removed) raw.removeHeader(name);
    for (const [name, value] of set) raw.setHeader(name, value);
    done();
  });
}

export const securityHeadersOnEveryAnswer = fp(securityHeadersPlugin, { name: 'security-headers' });
