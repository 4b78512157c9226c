/**
 * Serves the built web app from dist/web: hashed assets cached for a year, everything
 * else revalidated, and any non-API path answered with index.html so the client router
 * (and its 404 page) decides. Unknown /api paths get a JSON 404.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ErrorBody } from '../../common/errors.js';
import { ERRORS } from '../../common/errors.js';

export interface WebAppOptions {
  root: string;
  /**
   * Paths the server answers itself when configured (GET /metrics with METRICS_TOKEN), never
   * pages of the web app: unconfigured, they are a plain 404, as a missing file, rather than
   * the app's index.html, so a scraper pointed at one is told it is not there.
   */
  serverPaths?: readonly string[];
}

async function webAppPlugin(app: FastifyInstance, { root, serverPaths = [] }: WebAppOptions) {
  const ownPaths = new Set(serverPaths);
  const hasWeb = existsSync(path.join(root, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The build writes .br/.gz beside each asset (scripts/compress-web.mjs).
      preCompressed: true,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        void reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (url === '/api' || url.startsWith('/api/')) {
      const body: ErrorBody = { code: 'ROUTE_NOT_FOUND', message: `${ERRORS.ROUTE_NOT_FOUND.message}: ${request.method} ${url}`, requestId: String(request.id) };
      return reply.status(404).send(body);
    }
    if (!hasWeb) {
      return reply.status(404).type('text/plain').send('The web app is not built. Run `npm run build` (npm start does it).');
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.status(404).send({ code: 'NOT_FOUND', message: ERRORS.NOT_FOUND.message } satisfies ErrorBody);
    }
    // A file-like path (favicon.png, an old asset) that is not there is a real 404.
    const last = url.split('/').pop() ?? '';
    if (last.includes('.') || ownPaths.has(url)) {
      return reply.status(404).type('text/plain').send('Not found');
    }
    void reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}

export const webApp = fp(webAppPlugin, { name: 'web-app' });
