/**
 * The OpenAPI document against the app itself: every API route of the route table is in it
 * with its schemas, access rule and errors; real answers of the API, called as a technician, a
 * client and an owner Admin on the fuzzer's fixture, match the answer schema the document gives
 * for their route and status (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses); and only Admins
 * may read it.
 */
import type { HTTPMethods, RouteOptions } from 'fastify';
import type { InjectOptions, Response as InjectResponse } from 'light-my-request';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../../common/errors.js';
import { openApiDocumentSchema, type OpenApiDocument } from '../../../common/schemas/api-docs.js';
import type { Access } from '../../plugins/access.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { signIn, TEST_PASSWORD } from '../../test/factories.js';
import { CALLER_IDS, RECORD_IDS, seedFixture } from '../../test/fuzz/fixture.js';
import { makeJpeg, serviceVisitMetadata, sha256, uploadForm } from '../../test/photos.js';
import { errorCodesOf, isApiRoute, routeKey } from './document.js';
import { ROUTE_DOCS } from './route-docs.js';

interface TableRoute {
  method: HTTPMethods;
  url: string;
  schema: Record<string, unknown>;
  access: Access | undefined;
  config: RouteOptions['config'];
}

const table: TableRoute[] = [];
/** Which route answered a request, by request id (the answer's x-request-id). */
const routeOfRequest = new Map<string, string>();

function onRoute(route: RouteOptions) {
  if (!isApiRoute(route.url)) return;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  for (const method of methods) {
    // Fastify's HEAD twin of each GET shares the GET's documentation.
    if (method !== 'HEAD') {
      table.push({ method, url: route.url, schema: (route.schema ?? {}) as Record<string, unknown>, access: route.config?.access, config: route.config });
    }
  }
  // Each answer is matched to its route's documentation by the route that made it.
  const key = routeKey(methods[0] ?? '', route.url);
  // onSend: it runs for refusals too (an access check refuses before any onRequest hook of the route).
  const own = route.onSend ? (Array.isArray(route.onSend) ? route.onSend : [route.onSend]) : [];
  route.onSend = [
    ...own,
    (request, _reply, payload, done) => {
      routeOfRequest.set(String(request.id), key);
      done(null, payload);
    },
  ];
}

const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

let t: TestApp;
let document: OpenApiDocument;
let documentRaw: Record<string, unknown>;
const cookies: Record<'technician' | 'client' | 'admin', string> = { technician: '', client: '', admin: '' };

beforeAll(async () => {
  t = await buildTestApp({}, { onRoute });
  await seedFixture(t);
  for (const caller of ['technician', 'client', 'admin'] as const) cookies[caller] = await signIn(t.app, CALLER_IDS[caller]);
  const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { cookie: cookies.admin } });
  expect(response.statusCode, response.body).toBe(200);
  documentRaw = response.json<Record<string, unknown>>();
  document = openApiDocumentSchema.parse(documentRaw);
});
afterAll(() => t.close());

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with the session cookie as its security scheme', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(documentRaw).toMatchObject({ components: { securitySchemes: { sessionCookie: { type: 'apiKey', in: 'cookie', name: 'hkmi_session' } } } });
  });

  it('lists every API route of the route table, and nothing else', () => {
    expect(table.length).toBeGreaterThan(50);
    const documented = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    const routes = table.map((route) => `${route.method} ${openApiPath(route.url)}`);
    expect(routes.filter((route) => !documented.includes(route))).toEqual([]);
    expect(documented.filter((operation) => !routes.includes(operation))).toEqual([]);
    // The table of summaries holds no route that is gone, and misses none.
    expect(Object.keys(ROUTE_DOCS).filter((key) => !table.some((route) => routeKey(route.method, route.url) === key))).toEqual([]);
    expect(table.map((route) => routeKey(route.method, route.url)).filter((key) => !ROUTE_DOCS[key])).toEqual([]);
  });

  it("gives each operation its route's schemas, access rule, summary and error codes", () => {
    const problems: string[] = [];
    for (const route of table) {
      const operation = document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      const name = routeKey(route.method, route.url);
      if (!operation) continue;
      const parameters = operation.parameters ?? [];
      if (route.schema.querystring && !parameters.some((p) => p.in === 'query')) problems.push(`${name}: no query parameters`);
      for (const param of route.url.matchAll(/:(\w+)/g)) {
        if (!parameters.some((p) => p.in === 'path' && p.name === param[1] && p.schema)) problems.push(`${name}: no path parameter ${param[1]}`);
      }
      if (route.schema.body && !operation.requestBody?.content['application/json']?.schema) problems.push(`${name}: no JSON request body`);
      const answers = (route.schema.response ?? {}) as Record<string, unknown>;
      for (const status of Object.keys(answers)) {
        if (!operation.responses[status]?.content?.['application/json']?.schema) problems.push(`${name}: no JSON answer for ${status}`);
      }
      const doc = ROUTE_DOCS[name];
      if (doc?.file && !Object.keys(operation.responses['200']?.content ?? {}).some((type) => doc.file?.includes(type))) problems.push(`${name}: no file answer`);
      if (Object.keys(answers).length === 0 && !doc?.file) problems.push(`${name}: no documented answer`);
      expect(operation['x-access'], name).toEqual(route.access);
      expect(operation.summary, name).toBe(doc?.summary);
      expect(operation.description, name).toMatch(/^Access: /);
      expect(operation.security, name).toEqual(route.access?.kind === 'public' ? [] : [{ sessionCookie: [] }]);
      for (const code of errorCodesOf(route)) {
        // The error body (a component) narrowed to the codes of that status: allOf [ErrorAnswer, {code: enum}].
        const schema = operation.responses[String(ERRORS[code].status)]?.content?.['application/json']?.schema as
          | { allOf?: Array<{ $ref?: string; properties?: { code?: { enum?: string[] } } }> }
          | undefined;
        const [body, narrowed] = schema?.allOf ?? [];
        if (body?.$ref !== '#/components/schemas/ErrorAnswer' || !narrowed?.properties?.code?.enum?.includes(code)) problems.push(`${name}: ${code} not documented`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('describes the multipart uploads as multipart/form-data', () => {
    for (const url of ['/api/inspections/upload', '/api/import-excel']) {
      const form = document.paths[url]?.post?.requestBody?.content['multipart/form-data']?.schema;
      expect(form, url).toMatchObject({ type: 'object', properties: { file: { type: 'string' } } });
    }
  });

  it('names the access rule in words and the refusals it brings', () => {
    const users = document.paths['/api/users']?.get;
    expect(users?.description).toContain('Access: signed-in users with the role Admin.');
    expect(Object.keys(users?.responses ?? {})).toEqual(expect.arrayContaining(['200', '401', '403', '500']));
    const health = document.paths['/api/health']?.get;
    expect(health?.description).toContain('Access: public');
    expect(health?.responses['401']).toBeUndefined();
  });
});

describe('who may read the document', () => {
  it('answers Admins only: 401 without a session, 403 for technicians and clients', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).statusCode).toBe(401);
    for (const caller of ['technician', 'client'] as const) {
      const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { cookie: cookies[caller] } });
      expect(response.statusCode, caller).toBe(403);
    }
    expect(document.paths['/api/openapi.json']?.get?.['x-access']).toEqual({ kind: 'roles', roles: ['Admin'] });
  });

  it('sends the same bytes each time, revalidated by ETag', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { cookie: cookies.admin } });
    const again = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { cookie: cookies.admin, 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(first.body).toBe(JSON.stringify(documentRaw));
  });
});

describe('real answers against the documented answer schemas', () => {
  const checked: Array<{ route: string; status: number }> = [];
  const mismatches: string[] = [];
  let ajv: Ajv2020;
  const validators = new Map<string, ValidateFunction>();

  beforeAll(() => {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    // The formats Zod writes; ajv-formats is not installed, so these few are checked here.
    ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
    ajv.addFormat('date-time', { validate: (value: string) => !Number.isNaN(Date.parse(value)) });
    ajv.addFormat('email', /^[^\s@]+@[^\s@]+$/);
    ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    ajv.addFormat('uri', { validate: () => true });
    ajv.addSchema({ ...documentRaw, $id: 'openapi' }, undefined, undefined, false);
  });

  const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

  /** Calls the API and checks the answer against the document: its status is documented, and its body matches. */
  async function call(caller: keyof typeof cookies | 'anonymous', options: InjectOptions): Promise<InjectResponse> {
    const headers = { ...(options.headers ?? {}), ...(caller === 'anonymous' ? {} : { cookie: cookies[caller] }) };
    const response = await t.app.inject({ ...options, headers });
    const route = routeOfRequest.get(String(response.headers['x-request-id']));
    const where = `${String(options.method)} ${String(options.url)} as ${caller} -> ${response.statusCode}`;
    if (!route) {
      mismatches.push(`${where}: answered by no route`);
      return response;
    }
    const [method = '', url = ''] = route.split(' ');
    const operation = document.paths[openApiPath(url)]?.[method.toLowerCase()];
    const status = String(response.statusCode);
    const answer = operation?.responses[status];
    if (!answer) {
      mismatches.push(`${where}: status ${status} not documented for ${route}`);
      return response;
    }
    checked.push({ route, status: response.statusCode });
    if (response.statusCode === 304) return response;
    const contentType = String(response.headers['content-type'] ?? '').split(';')[0] ?? '';
    if (!answer.content?.[contentType]) {
      mismatches.push(`${where}: content type ${contentType} not documented (${Object.keys(answer.content ?? {}).join(', ')})`);
      return response;
    }
    if (contentType !== 'application/json') return response;
    const ref = `openapi#/${pointer('paths', openApiPath(url), method.toLowerCase(), 'responses', status, 'content', 'application/json', 'schema')}`;
    let validate = validators.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      validators.set(ref, validate);
    }
    if (!validate(response.json())) mismatches.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    return response;
  }

  const get = (caller: keyof typeof cookies | 'anonymous', url: string) => call(caller, { method: 'GET', url });
  const send = (caller: keyof typeof cookies | 'anonymous', method: HTTPMethods, url: string, payload?: object) =>
    call(caller, { method, url, ...(payload ? { payload } : {}) });

  async function untilReportSettled(reportId: string) {
    for (;;) {
      const response = await get('admin', `/api/reports/${reportId}`);
      const status = response.json<{ status: string }>().status;
      if (status === 'done' || status === 'failed') return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function untilFileTaskSettled(url: string): Promise<InjectResponse> {
    for (;;) {
      const response = await get('admin', url);
      if (response.statusCode !== 202) return response;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('match for every read and the main writes, as each kind of user', { timeout: 120_000 }, async () => {
    const [record] = RECORD_IDS as [string];
    // Reads, as each caller that may make them.
    await get('anonymous', '/api/health');
    await get('anonymous', '/api/ready');
    await get('anonymous', '/api/auth/demo-accounts');
    for (const caller of ['technician', 'client', 'admin'] as const) {
      await get(caller, '/api/auth/me');
      await get(caller, '/api/consolidated-curves');
      await get(caller, '/api/consolidated-curves?division=RTM%2FWR&limit=2');
      await get(caller, '/api/stations');
      await get(caller, '/api/stations?section=RTM-NAD');
      await get(caller, '/api/inspections');
      await get(caller, '/api/schedule');
      await get(caller, '/api/actions');
      await get(caller, '/api/machine-parts/categories');
      await get(caller, '/api/machine-parts');
      await get(caller, '/api/machine-parts?category=Nozzle');
      await get(caller, '/api/register-filters');
      await get(caller, `/api/inspections/${record}/image`);
      await get(caller, `/api/inspections/${record}/thumbnail`);
    }
    for (const caller of ['client', 'admin'] as const) {
      await get(caller, '/api/technicians');
      await get(caller, '/api/data-summary');
      await get(caller, '/api/schedule/summary');
      await get(caller, '/api/actions/counts');
      await get(caller, '/api/analytics/summary');
      await get(caller, '/api/analytics/dashboard');
      await get(caller, '/api/analytics/export');
      await get(caller, '/api/analytics/export?chart=faults');
      await get(caller, '/api/machine-filters');
      await get(caller, '/api/machine-stats');
      await get(caller, '/api/machine-progress');
      await get(caller, '/api/reports');
      await get(caller, `/api/image/download/${record}`);
      await call(caller, { method: 'POST', url: '/api/images/download', payload: { imageIds: [record] } });
    }
    await get('admin', '/api/users');
    await get('admin', '/api/admin/stations');
    await get('admin', '/api/export/curves');
    await get('admin', '/api/export/stations');
    await get('admin', '/api/machine-dashboard-summaries');
    await get('admin', '/api/machine-dashboard-summary');
    await get('admin', '/api/download/requirements');
    await get('admin', '/api/download/user-requirements');
    await get('admin', '/api/openapi.json');

    // Refusals are documented answers too.
    await get('anonymous', '/api/users');
    await get('technician', '/api/users');
    await get('admin', '/api/inspections/INS-20990101-NOPE01/image');
    await send('admin', 'POST', '/api/stations', { no: 'one' });

    // The main writes.
    await send('anonymous', 'POST', '/api/auth/login', { employeeId: CALLER_IDS.technician, password: 'wrong password 1' });
    await send('anonymous', 'POST', '/api/auth/login', { employeeId: 'DOC-NOBODY', password: TEST_PASSWORD });
    await send('anonymous', 'POST', '/api/auth/login', { employeeId: CALLER_IDS.client, password: TEST_PASSWORD });
    await send('admin', 'PUT', '/api/auth/language', { language: 'hi' });
    const curveKey = { section: 'DOC-SEC', curveNumber: '9/1', line: 'Up' };
    const curve = { no: 99, divisionRailway: 'RTM/WR', ...curveKey, station1: 'Ratlam Jn', station2: 'Bangrod' };
    await send('admin', 'POST', '/api/consolidated-curves', curve);
    await send('admin', 'POST', '/api/consolidated-curves', curve);
    const curvePath = `${encodeURIComponent(curveKey.section)}/${encodeURIComponent(curveKey.curveNumber)}/${curveKey.line}`;
    await send('admin', 'PUT', `/api/admin/curves/${curvePath}`, { ...curve, sse: 'SSE/Doc' });
    await send('admin', 'DELETE', `/api/consolidated-curves/${curvePath}`);
    const created = await send('admin', 'POST', '/api/stations', { no: 9, stationName: 'Doc Halt', stationCode: 'DOCH', section: 'RTM-NAD', divisionRailway: 'RTM/WR' });
    const stationId = created.json<{ station?: { id: number } }>().station?.id ?? 0;
    await send('admin', 'PUT', `/api/admin/stations/${stationId}`, { no: 9, stationName: 'Doc Halt Road', stationCode: 'DOCH', section: 'RTM-NAD', divisionRailway: 'RTM/WR' });
    await send('admin', 'DELETE', `/api/stations/${stationId}`);
    await send('admin', 'POST', '/api/users', { employeeId: 'DOC100', name: 'Doc Technician', phone: '9876543210' });
    await send('admin', 'POST', '/api/auth/reset-password', { employeeId: 'DOC100', newPassword: 'brand new secret' });
    await send('admin', 'POST', '/api/users/DOC100/deactivate');
    await send('admin', 'POST', '/api/users/DOC100/reactivate');
    await send('admin', 'PUT', '/api/machine-dashboard-summary', { division: 'JBP/WCR', scope: 4, foundationCompleted: 3, machinesInstalled: 2, machinesCommissioned: 1 });

    // A visit that files a follow-up action (a broken part), sent twice: new, then its replay.
    const photo = await makeJpeg(640, 480, 3);
    const metadata = serviceVisitMetadata({ photoSha256: sha256(photo), date: '2025-01-20' });
    for (let i = 0; i < 2; i++) {
      await call('technician', { method: 'POST', url: '/api/inspections/upload', payload: uploadForm(metadata, photo) });
    }
    const actions = (await get('admin', '/api/actions')).json<{ actions: Array<{ id: number }> }>().actions;
    const [action] = actions;
    if (action) {
      await send('admin', 'POST', `/api/actions/${action.id}/close`, { note: 'Fixed on site' });
      await send('admin', 'POST', `/api/actions/${action.id}/close`, { note: 'Again' });
      await send('admin', 'POST', `/api/actions/${action.id}/reopen`, { note: 'Broke again' });
    }

    // Reports: asked, followed and downloaded.
    const job = await send('admin', 'POST', '/api/reports/generate', { type: 'Service', division: 'RTM/WR' });
    const { reportId } = job.json<{ reportId: string }>();
    await untilReportSettled(reportId);
    await get('admin', `/api/reports/download/${reportId}`);
    await get('admin', `/api/download/${reportId}`);
    await send('admin', 'POST', '/api/reports/generate', { type: 'CoF', division: 'FZR/NR' });
    const machineJob = await get('admin', '/api/machine-report');
    await untilReportSettled(machineJob.json<{ reportId: string }>().reportId);
    await get('client', '/api/reports');

    // The file tools: a check, run to its end, and its task.
    const status = await untilFileTaskSettled('/api/admin/files/status');
    await get('admin', '/api/admin/files/tasks');
    const taskId = status.json<{ taskId?: string; task?: { id: string } }>();
    const id = taskId.taskId ?? taskId.task?.id;
    if (id) await get('admin', `/api/admin/files/tasks/${encodeURIComponent(id)}`);

    await get('admin', '/api/audit');
    await send('admin', 'DELETE', `/api/inspections/${RECORD_IDS[3]}`);
    await send('admin', 'POST', '/api/images/delete', { imageIds: [RECORD_IDS[1]] });
    await send('technician', 'POST', '/api/auth/change-password', { currentPassword: 'wrong one 123', newPassword: 'my own secret 7' });
    await send('technician', 'POST', '/api/auth/change-password', { currentPassword: TEST_PASSWORD, newPassword: 'my own secret 7' });
    await send('technician', 'POST', '/api/auth/logout');

    // Demo mode is off in this app: the demo accounts are read from one where it is on.
    const demo = await buildTestApp({ demo: true });
    try {
      const answer = await demo.app.inject({ method: 'GET', url: '/api/auth/demo-accounts' });
      const validate = ajv.compile({ $ref: `openapi#/${pointer('paths', '/api/auth/demo-accounts', 'get', 'responses', '200', 'content', 'application/json', 'schema')}` });
      expect(answer.statusCode).toBe(200);
      if (validate(answer.json())) checked.push({ route: 'GET /api/auth/demo-accounts', status: 200 });
      else mismatches.push(`GET /api/auth/demo-accounts in demo mode: ${ajv.errorsText(validate.errors)}`);
    } finally {
      await demo.close();
    }

    expect(mismatches).toEqual([]);
    // The main writes were answered with a success, not only refused.
    const wroteOk = new Set(checked.filter((c) => c.status < 300 && !c.route.startsWith('GET ')).map((c) => c.route));
    const mainWrites = Object.keys(ROUTE_DOCS).filter((key) => !key.startsWith('GET ') && !key.startsWith('POST /api/reports/') && key !== 'POST /api/import-excel' && !key.includes('/files/'));
    expect(mainWrites.filter((key) => !wroteOk.has(key))).toEqual([]);
    // And the check can fail: an answer of the wrong shape is refused.
    const users = ajv.compile({ $ref: `openapi#/${pointer('paths', '/api/users', 'get', 'responses', '200', 'content', 'application/json', 'schema')}` });
    expect(users({ users: [{ employeeId: 7 }] })).toBe(false);
    // Every GET route of the table answered at least once with a documented success.
    const succeeded = new Set(checked.filter((c) => c.status < 300).map((c) => c.route));
    const unreadGets = table.filter((route) => route.method === 'GET').map((route) => routeKey(route.method, route.url)).filter((key) => !succeeded.has(key));
    expect(unreadGets).toEqual([]);
  });
});
