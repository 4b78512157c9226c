/**
 * The OpenAPI 3.1 document of the API, made by @fastify/swagger from the route table: each
 * route's own Zod schemas (through fastify-type-provider-zod's transform), its access rule
 * (config.access, as plugins/access.ts enforces it), and the catalogue codes it can answer.
 * Swagger collects the routes as they are registered (onRoute), so `collectApiRoutes` is
 * registered before the features; the document is made once, when the app is ready.
 */
import fastifySwagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SESSION_COOKIE } from '../../../common/constants.js';
import { ERRORS, type ErrorCode } from '../../../common/errors.js';
import { errorBodySchema } from '../../../common/schemas/error-body.js';
import type { Access } from '../../plugins/access.js';
import { ROUTE_DOCS } from './route-docs.js';

export const SESSION_SCHEME = 'sessionCookie';

export const isApiRoute = (url: string) => url === '/api' || url.startsWith('/api/');
export const routeKey = (method: string, url: string) => `${method} ${url}`;

/** What a route's access rule means, in a sentence of the operation's description. */
export function accessSentence(rule: Access | undefined): string {
  if (!rule) return 'Access: nobody (the route declares no rule and is refused).';
  switch (rule.kind) {
    case 'public':
      return 'Access: public, no session needed.';
    case 'signed-in':
      return 'Access: any signed-in user.';
    case 'roles':
      return `Access: signed-in users with the role ${rule.roles.join(' or ')}.`;
    case 'owner':
      return 'Access: owners only (Admins listed in OWNER_EMPLOYEE_IDS).';
  }
}

/** The methods whose body Fastify reads: a body that is not JSON, too large or of another type is refused. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The catalogue codes a route can answer: those every API route can give (a malformed path or
 * value, a request from another site, one that arrived too slowly or with too many headers, an
 * unexpected failure), those of its access rule (plugins/access.ts), those of a body, and the
 * route's own (route-docs.ts).
 */
export function errorCodesOf(route: Pick<RouteOptions, 'config'> & { method: string; url: string }): ErrorCode[] {
  const codes = new Set<ErrorCode>(['VALIDATION_FAILED', 'CROSS_SITE_REQUEST', 'REQUEST_TIMEOUT', 'HEADERS_TOO_LARGE', 'INTERNAL']);
  const rule = route.config?.access;
  if (rule && rule.kind !== 'public') {
    codes.add('NOT_AUTHENTICATED').add('SESSION_EXPIRED');
    if (route.config?.allowDuringPasswordChange !== true) codes.add('PASSWORD_CHANGE_REQUIRED');
    if (rule.kind !== 'signed-in') codes.add('FORBIDDEN');
  }
  if (BODY_METHODS.has(route.method)) codes.add('MALFORMED_JSON').add('UNSUPPORTED_MEDIA_TYPE').add('BODY_TOO_LARGE');
  for (const code of ROUTE_DOCS[routeKey(route.method, route.url)]?.errors ?? []) codes.add(code);
  return [...codes];
}

/** The error body every refusal has (common/schemas/error-body.ts), once in the components. */
const ERROR_ANSWER = 'ErrorAnswer';
const { $schema: _dialect, ...errorAnswerJson } = z.toJSONSchema(errorBodySchema, { target: 'draft-2020-12' });

/** The error answers by status, each narrowing the error body's code to that status's codes of the route. */
function errorAnswers(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  const answers: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    answers[String(status)] = {
      // The messages are in the document's x-error-codes, once.
      description: list.join(', '),
      content: {
        'application/json': {
          schema: { allOf: [{ $ref: `#/components/schemas/${ERROR_ANSWER}` }, { properties: { code: { enum: list } } }] },
        },
      },
    };
  }
  return answers;
}

/** A file answer's body: bytes of one of the route's media types. */
const fileAnswer = (types: readonly string[]) => ({
  description: `The file (${types.join(', ')})`,
  content: Object.fromEntries(types.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
});

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/** The Zod type provider's transform, then this product's access rule, errors, tag and summary. */
function transform(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const { route, url } = input;
  const method = String(route.method);
  // The web app's files and anything outside /api are not the API.
  if (!isApiRoute(url)) return { schema: { hide: true }, url };
  const transformed = jsonSchemaTransform(input);
  // A route with no schema at all (a file answer with no parameters) comes back without one.
  const schema: FastifySchema = transformed.schema ?? {};
  const transformedUrl = transformed.url;
  const doc = ROUTE_DOCS[routeKey(method, url)];
  const rule = route.config?.access;
  const response: Record<string, unknown> = { ...(schema.response as Record<string, unknown> | undefined) };
  if (doc?.file && response['200'] === undefined) response['200'] = fileAnswer(doc.file);
  Object.assign(response, errorAnswers(errorCodesOf({ ...route, method })));
  const multipart = doc?.multipart ? { body: doc.multipart, consumes: ['multipart/form-data'] } : {};
  const passwordChange = route.config?.allowDuringPasswordChange === true ? ' Allowed while the user must still choose a new password.' : '';
  // Swagger reads x- keys, tags, summary and security off the schema; FastifySchema does not type them.
  const documented: Record<string, unknown> = {
    ...schema,
    ...multipart,
    response,
    tags: [doc?.tag ?? 'Other'],
    summary: doc?.summary ?? `${method} ${url}`,
    description: `${accessSentence(rule)}${passwordChange}`,
    security: rule && rule.kind !== 'public' ? [{ [SESSION_SCHEME]: [] }] : [],
    'x-access': rule ?? null,
    operationId: `${method.toLowerCase()}${url.replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
  };
  return { schema: documented as FastifySchema, url: transformedUrl };
}

async function collectApiRoutesPlugin(app: FastifyInstance, { version }: { version: string }) {
  const openapi = {
    openapi: '3.1.0',
    info: {
      title: 'Curve lubrication field app API',
      version,
      description:
        'The HTTP API of the curve lubrication field app. Every operation names who may call it (`x-access` and its ' +
        `security requirement: the \`${SESSION_COOKIE}\` session cookie set by POST /api/auth/login) and the error codes ` +
        'it can answer; every error answer has the same JSON body ({code, message, fields?, rowErrors?, requestId}).',
    },
    components: {
      schemas: { [ERROR_ANSWER]: errorAnswerJson },
      securitySchemes: { [SESSION_SCHEME]: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session cookie set by POST /api/auth/login' } },
    },
  };
  await app.register(fastifySwagger, {
    // Zod's JSON Schema type and openapi-types' type `type` differently; the schema is JSON Schema 2020-12, as OpenAPI 3.1's.
    openapi: openapi as FastifyDynamicSwaggerOptions['openapi'],
    transform,
    // The Zod registry's schemas, and the catalogue every error answer's code comes from.
    transformObject: (input) => ({ ...jsonSchemaTransformObject(input), 'x-error-codes': ERRORS }),
  });
}

/** Not encapsulated: swagger's onRoute hook must see the routes of every feature registered after it. */
export const collectApiRoutes = fp(collectApiRoutesPlugin, { name: 'api-route-collector' });
