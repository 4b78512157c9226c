/**
 * Refuses writes that another site makes a browser send (cross-site request forgery), whatever
 * cookie they carry. A browser names the page a request came from in `Origin` (every POST,
 * PUT, PATCH and DELETE of a current browser), or else in `Referer`; a write naming another
 * site is answered 403 CROSS_SITE_REQUEST before its session is read or its body parsed. A
 * request naming neither did not come from a web page (curl, a script, the bench) and is
 * judged by its session alone. The session cookie's SameSite=Lax is the first line; this is
 * the second, and it also covers the sign-in form (login CSRF) and browsers that treat a
 * fresh cookie as same-site for two minutes.
 *
 * Any /api request a browser marks `Sec-Fetch-Site: cross-site` is refused the same way.
 *
 * Same site means the host (with its port) the request was sent to: behind a proxy that
 * changes the Host, set TRUST_PROXY (X-Forwarded-Host) or list the public origin in
 * ALLOWED_ORIGINS. The scheme is not compared, so a proxy ending TLS without telling us
 * does not refuse the app's own writes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../app-error.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface SameOriginOptions {
  /** Other origins whose pages may write (e.g. https://field.example.org), as configured. */
  allowedOrigins: readonly string[];
}

/** The origin a browser says the request came from; undefined when it says nothing. */
function claimedOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '') return origin;
  const referer = request.headers.referer;
  if (typeof referer !== 'string' || referer === '') return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}

/**
 * Whether the origin names the host (and port) the request was sent to. A Host without a port
 * (or with a default one) matches either default port: behind a proxy ending TLS the server
 * sees http while the page is https.
 */
function namesThisHost(origin: string, host: string): boolean {
  let page: URL;
  let server: URL;
  try {
    page = new URL(origin);
    server = new URL(`http://${host}`);
  } catch {
    // "null" (a sandboxed frame, a file) and anything unreadable name no site of ours.
    return false;
  }
  if (page.protocol !== 'http:' && page.protocol !== 'https:') return false;
  if (page.hostname !== server.hostname) return false;
  const pagePort = page.port || (page.protocol === 'https:' ? '443' : '80');
  return server.port === '' || server.port === '443' ? pagePort === '80' || pagePort === '443' : pagePort === server.port;
}

/** The refusal, naming the other site when the browser said which it was. */
const refusal = (origin: string | undefined) =>
  new AppError(
    'CROSS_SITE_REQUEST',
    origin === undefined ? 'This request came from another site and was refused' : `This request came from another site (${origin.slice(0, 200)}) and was refused`,
  );

/** The API's paths: the web app's own files may be linked to from anywhere. */
const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

async function sameOriginPlugin(app: FastifyInstance, options: SameOriginOptions) {
  const allowed = new Set(options.allowedOrigins.map((origin) => new URL(origin).origin));
  // Synchronous (done, no promise): it waits for nothing, and every request passes through it.
  app.addHook('onRequest', (request, _reply, done) => {
    // A resource-isolation policy: the API answers nothing another site makes a browser ask
    // for, reads included. A SameSite=Lax cookie rides along on a top-level navigation from
    // another site, and a few GETs start work (a photo check, a machine report). Browsers name
    // the site in Sec-Fetch-Site; requests without it (scripts, old browsers) keep the rules below.
    if (request.headers['sec-fetch-site'] === 'cross-site' && isApiPath(request.url)) throw refusal(claimedOrigin(request));
    if (WRITES.has(request.method)) {
      const origin = claimedOrigin(request);
      if (origin !== undefined && !allowed.has(origin) && !namesThisHost(origin, request.host)) throw refusal(origin);
    }
    done();
  });
}

export const sameOrigin = fp(sameOriginPlugin, { name: 'same-origin' });
