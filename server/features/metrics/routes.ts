import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../app-error.js';
import type { AppMetrics } from './app-metrics.js';
import { processMetrics } from './process-metrics.js';

export interface MetricsFeatureOptions {
  metrics: AppMetrics;
  /** METRICS_TOKEN: Prometheus sends it as `Authorization: Bearer <token>`. */
  token: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether the request carries the token. Both sides are hashed first, so the comparison takes
 * the same time whatever was sent, its length included.
 */
function hasToken(request: FastifyRequest, expected: Buffer): boolean {
  const header = request.headers.authorization;
  const sent = typeof header === 'string' ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1] : undefined;
  return timingSafeEqual(digest(sent ?? ''), expected) && sent !== undefined;
}

/**
 * GET /metrics, for Prometheus, and the hook that counts every request. Made only when
 * METRICS_TOKEN is set (app.ts): unset, there is no route (the path is a 404 like any unknown
 * one) and no hook on the request path at all. Registered with fastify-plugin, so the hook
 * sees the routes of every feature.
 *
 * A missing or wrong token is refused with 401 and `WWW-Authenticate: Bearer`, not a 404: the
 * path is no secret (every such service has one), while a 401 tells the person setting up
 * Prometheus that the token is what is wrong, not the address.
 */
async function metricsPlugin(app: FastifyInstance, { metrics, token }: MetricsFeatureOptions) {
  const expected = digest(token);

  // Once per request, after the answer went: the route's pattern (read once: routeOptions is
  // built anew at each read), never the raw URL.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', async (request, reply) => {
    if (!hasToken(request, expected)) {
      throw new AppError('NOT_AUTHENTICATED', 'GET /metrics needs the METRICS_TOKEN as a bearer token', { headers: { 'www-authenticate': 'Bearer realm="metrics"' } });
    }
    const process = processMetrics();
    const text = (await metrics.scrape()) + (await process.metrics());
    void reply.header('cache-control', 'no-store');
    return reply.type(process.contentType).send(text);
  });
}

export const metricsFeature = fp(metricsPlugin, { name: 'metrics' });
