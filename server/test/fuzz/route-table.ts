/**
 * The live route table, read from the app as it registers its routes (buildTestApp's onRoute),
 * with each route's Zod schemas (fastify-type-provider-zod leaves them on `schema`): a route
 * added later is fuzzed without editing the fuzzer.
 */
import type { HTTPMethods, RouteOptions } from 'fastify';
import type { ZodType } from 'zod';
import type { Access } from '../../plugins/access.js';

export interface FuzzRoute {
  method: HTTPMethods;
  /** The route's path as registered, e.g. /api/inspections/:recordId/image. */
  url: string;
  /** Names of the path parameters, in order. */
  params: string[];
  body: ZodType | undefined;
  querystring: ZodType | undefined;
  paramsSchema: ZodType | undefined;
  access: Access | undefined;
}

export const routeKey = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

function isZod(value: unknown): value is ZodType {
  return typeof value === 'object' && value !== null && 'safeParse' in value && typeof value.safeParse === 'function';
}

export function routeCollector() {
  const routes: FuzzRoute[] = [];
  function onRoute(route: RouteOptions) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const params = [...route.url.matchAll(/[:*](\w*)/g)].map((m) => m[1] || '*');
    for (const method of methods) {
      routes.push({
        method,
        url: route.url,
        params,
        body: isZod(schema.body) ? schema.body : undefined,
        querystring: isZod(schema.querystring) ? schema.querystring : undefined,
        paramsSchema: isZod(schema.params) ? schema.params : undefined,
        access: route.config?.access,
      });
    }
  }
  return { routes, onRoute };
}
