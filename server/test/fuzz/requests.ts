/**
 * Whole requests for a route of the table: a caller, a method (now and then the wrong one),
 * path parameters (valid-ish or hostile), a query string and a body, each built from the
 * route's own Zod schemas and then, often, broken: mutated JSON, JSON that does not parse,
 * the wrong content type, malformed multipart, odd headers.
 */
import fc from 'fast-check';
import { brokenJson, encode, hostileQuery, hostileSegment, hostileString, hostileValue } from './hostile.js';
import type { FuzzRoute } from './route-table.js';
import { jsonSchemaOf, mutated, propertyNames, validish, type Hints, type JsonSchema } from './schema-arbitrary.js';

export const CALLERS = ['anonymous', 'technician', 'client', 'admin'] as const;
export type CallerName = (typeof CALLERS)[number];

export interface FuzzRequest {
  /** The route it was made for ("POST /api/users"). */
  route: string;
  caller: CallerName;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** A short name of how the body was made, for the report of a failure. */
  bodyKind: string;
}

/** A file part of a multipart form. */
export interface FilePart {
  filename: string;
  contentType: string;
  data: Buffer;
}

/** What a route that reads multipart expects: its fields and files, each valid-ish. */
export interface FormPlan {
  fields: Record<string, fc.Arbitrary<string>>;
  files: Record<string, fc.Arbitrary<FilePart>>;
}

export interface RequestContext {
  hints: Hints;
  /** Multipart forms of the routes that read one, by route key; others get a generic form. */
  forms: Record<string, FormPlan>;
  /** Every method a route may be called with (the wrong ones come from here). */
  methods: readonly string[];
}

const MULTIPART_MODES = ['ok', 'ok', 'ok', 'ok', 'no-boundary', 'wrong-boundary', 'truncated', 'no-end', 'no-part-headers', 'garbage'] as const;
type MultipartMode = (typeof MULTIPART_MODES)[number];

interface Part {
  name: string;
  file?: { filename: string; contentType: string };
  /** A field's own Content-Type (application/json makes the parser read it as JSON). */
  contentType?: string;
  data: Buffer;
}

/** An object as a query string: arrays repeat their key, objects go as JSON, null as an empty value. */
export function queryOf(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `q=${encode(JSON.stringify(value) ?? '')}`;
  const pairs: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const values = Array.isArray(v) ? (v as unknown[]) : [v];
    for (const item of values) {
      if (item === undefined) continue;
      const text = item === null ? '' : typeof item === 'object' ? JSON.stringify(item) : String(item as string | number | boolean);
      pairs.push(`${encode(key)}=${encode(text)}`);
    }
  }
  return pairs.join('&');
}

function multipartBytes(parts: readonly Part[], boundary: string, mode: MultipartMode, cut: number): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\n`;
    if (mode !== 'no-part-headers') {
      head += `Content-Disposition: form-data; name="${part.name}"`;
      if (part.file) head += `; filename="${part.file.filename}"\r\nContent-Type: ${part.file.contentType}`;
      else if (part.contentType) head += `\r\nContent-Type: ${part.contentType}`;
      head += '\r\n';
    }
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), part.data, Buffer.from('\r\n'));
  }
  if (mode !== 'no-end') chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(chunks);
  if (mode === 'truncated') return body.subarray(0, Math.floor(body.length * cut));
  return body;
}

const fileNames = fc.constantFrom('photo.jpg', 'inspection_image.jpg', '../../etc/passwd', 'a\u0000b.jpg', '\u202Egpj.exe', '', 'x'.repeat(300), 'sheet.csv', 'sheet.xlsx');

const genericFile: fc.Arbitrary<FilePart> = fc.record({
  filename: fileNames,
  contentType: fc.constantFrom('image/jpeg', 'text/plain', 'application/octet-stream', 'image/png', ''),
  data: fc.oneof(fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)), fc.constant(Buffer.alloc(0)), fc.constant(Buffer.from('not an image at all'))),
});

/** A multipart body: the route's form (or a generic one), its parts renamed, dropped, doubled or oversized, then framed right or wrong. */
function multipartArbitrary(plan: FormPlan | undefined): fc.Arbitrary<{ headers: Record<string, string>; payload: Buffer; kind: string }> {
  const fieldEntries = Object.entries(plan?.fields ?? { metadata: hostileString.map((s) => s.slice(0, 2000)), type: fc.constantFrom('curves', 'x') });
  const fileEntries = Object.entries(plan?.files ?? { file: genericFile });
  const fields = fc.tuple(...fieldEntries.map(([name, arb]) => arb.map((value): Part => ({ name, data: Buffer.from(value, 'utf8') }))));
  const files = fc.tuple(...fileEntries.map(([name, arb]) => arb.map((f): Part => ({ name, file: { filename: f.filename, contentType: f.contentType }, data: f.data }))));
  const change = fc.constantFrom('none', 'none', 'none', 'drop-first', 'drop-last', 'rename', 'two-files', 'many-fields', 'big-field', 'files-first', 'json-fields');
  return fc
    .record({ fields, files, change, mode: fc.constantFrom(...MULTIPART_MODES), cut: fc.double({ min: 0, max: 1, noNaN: true }), rename: fc.constantFrom('', 'File', 'photo', 'metadata[]', 'x'), boundary: fc.constantFrom('fuzzBoundary42', '----WebKitFormBoundary7MA4YWxkTrZu0gW', 'a') })
    .map(({ fields: f, files: fl, change, mode, cut, rename, boundary }) => {
      let parts: Part[] = change === 'files-first' ? [...fl, ...f] : [...f, ...fl];
      if (change === 'drop-first') parts = parts.slice(1);
      if (change === 'drop-last') parts = parts.slice(0, -1);
      if (change === 'rename' && parts[0]) parts = [{ ...parts[0], name: rename }, ...parts.slice(1)];
      if (change === 'two-files') parts = [...parts, ...fl];
      if (change === 'many-fields') parts = [...parts, ...Array.from({ length: 8 }, (_, i): Part => ({ name: `extra${i}`, data: Buffer.from('x') }))];
      if (change === 'json-fields') parts = parts.map((p) => (p.file ? p : { ...p, contentType: 'application/json' }));
      if (change === 'big-field') parts = [...parts, { name: f[0]?.name ?? 'metadata', data: Buffer.alloc(70 * 1024, 0x61) }];
      const payload = mode === 'garbage' ? Buffer.from(`--${boundary}\r\nthis is not a part\r\n\r\n--`) : multipartBytes(parts, boundary, mode, cut);
      const contentType =
        mode === 'no-boundary' ? 'multipart/form-data' : mode === 'wrong-boundary' ? `multipart/form-data; boundary=other${boundary}` : `multipart/form-data; boundary=${boundary}`;
      return { headers: { 'content-type': contentType }, payload, kind: `multipart:${mode}:${change}` };
    });
}

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'application/json; charset=utf-16',
  'application/octet-stream',
  'multipart/form-data',
  'APPLICATION/JSON',
  'application/json;;;',
  'application/merge-patch+json',
  '',
] as const;

interface Body {
  headers: Record<string, string>;
  payload?: string | Buffer;
  kind: string;
}

const json = (value: unknown, kind: string): Body => ({ headers: { 'content-type': 'application/json' }, payload: JSON.stringify(value) ?? 'null', kind });

function bodyArbitrary(route: FuzzRoute, context: RequestContext): fc.Arbitrary<Body> {
  const none = fc.constant<Body>({ headers: {}, kind: 'none' });
  const form = context.forms[`${route.method} ${route.url}`];
  if (route.body) {
    const base = validish(jsonSchemaOf(route.body), context.hints);
    return fc.oneof(
      { arbitrary: base.map((v) => json(v, 'valid-ish json')), weight: 5 },
      { arbitrary: mutated(base).map((v) => json(v, 'mutated json')), weight: 6 },
      { arbitrary: brokenJson.map((text): Body => ({ headers: { 'content-type': 'application/json' }, payload: text, kind: 'broken json' })), weight: 1 },
      {
        arbitrary: fc.tuple(base, fc.constantFrom(...WRONG_CONTENT_TYPES)).map(([v, type]): Body => ({
          headers: type ? { 'content-type': type } : {},
          payload: type === 'application/x-www-form-urlencoded' ? queryOf(v) : JSON.stringify(v),
          kind: `content-type ${type || 'none'}`,
        })),
        weight: 1,
      },
      { arbitrary: multipartArbitrary(form), weight: 1 },
      { arbitrary: hostileValue.map((v) => json(v, 'hostile json')), weight: 1 },
      { arbitrary: none, weight: 1 },
    );
  }
  if (route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH') {
    return fc.oneof(
      { arbitrary: multipartArbitrary(form), weight: form ? 8 : 2 },
      { arbitrary: none, weight: 2 },
      { arbitrary: hostileValue.map((v) => json(v, 'hostile json')), weight: 1 },
      { arbitrary: brokenJson.map((text): Body => ({ headers: { 'content-type': 'application/json' }, payload: text, kind: 'broken json' })), weight: 1 },
      { arbitrary: fc.constantFrom(...WRONG_CONTENT_TYPES).map((type): Body => ({ headers: type ? { 'content-type': type } : {}, payload: 'a=1&b=2', kind: `content-type ${type || 'none'}` })), weight: 1 },
    );
  }
  // GET, DELETE, HEAD, OPTIONS: mostly no body; now and then one anyway.
  return fc.oneof(
    { arbitrary: none, weight: 12 },
    { arbitrary: hostileValue.map((v) => json(v, 'json on a bodiless method')), weight: 1 },
    { arbitrary: brokenJson.map((text): Body => ({ headers: { 'content-type': 'application/json' }, payload: text, kind: 'broken json on a bodiless method' })), weight: 1 },
  );
}

function queryArbitrary(route: FuzzRoute, context: RequestContext): fc.Arbitrary<string> {
  if (!route.querystring) {
    return fc.oneof({ arbitrary: fc.constant(''), weight: 8 }, { arbitrary: hostileQuery([]), weight: 1 });
  }
  const schema = jsonSchemaOf(route.querystring);
  const base = validish(schema, context.hints);
  return fc.oneof(
    { arbitrary: base.map(queryOf), weight: 5 },
    { arbitrary: mutated(base).map(queryOf), weight: 4 },
    { arbitrary: hostileQuery(propertyNames(schema)), weight: 2 },
  );
}

function paramsArbitrary(route: FuzzRoute, context: RequestContext): fc.Arbitrary<Record<string, string>> {
  if (route.params.length === 0) return fc.constant({});
  const schema: JsonSchema = route.paramsSchema ? jsonSchemaOf(route.paramsSchema) : {};
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const name of route.params) {
    const property = schema.properties?.[name] ?? { type: 'string' };
    const good = validish(property, context.hints, name, schema).map((v) => encode(typeof v === 'string' ? v : JSON.stringify(v) ?? ''));
    model[name] = fc.oneof({ arbitrary: good, weight: 3 }, { arbitrary: hostileSegment, weight: 1 });
  }
  return fc.record(model);
}

const EXTRA_HEADERS: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { arbitrary: fc.constant({}), weight: 12 },
  { arbitrary: fc.constantFrom('*', '"x"', 'W/"x"', '', ', ,').map((tag): Record<string, string> => ({ 'if-none-match': tag })), weight: 1 },
  { arbitrary: fc.constantFrom('"x"', 'Wed, 21 Oct 2015 07:28:00 GMT').map((tag): Record<string, string> => ({ 'if-range': tag, range: 'bytes=0-10' })), weight: 1 },
  { arbitrary: fc.constantFrom('respond-async', 'respond-async, wait=0', 'wait=100000').map((prefer) => ({ prefer })), weight: 1 },
  { arbitrary: fc.constantFrom('gzip', 'br', 'identity;q=0', '*;q=0', 'gzip;q=abc').map((e): Record<string, string> => ({ 'accept-encoding': e })), weight: 1 },
  {
    arbitrary: fc
      .constantFrom('{"employeeId":"OWN0001","role":"Admin","isOwner":true}', 'not json', '{"__proto__":{"role":"Admin"}}', '')
      .map((data): Record<string, string> => ({ 'x-user-data': data })),
    weight: 1,
  },
);

/** A Range header, on one request in six: downloads answer ranges, and ranges past the end. */
const RANGE = fc.option(
  fc.constantFrom('bytes=0-0', 'bytes=-1', 'bytes=-0', 'bytes=999999999-', 'bytes=5-1', 'bytes=0-1,2-3', 'items=0-1', 'bytes=abc', 'bytes=0-99999999999999999999', 'bytes=-99999999999999999999'),
  { freq: 5, nil: undefined },
);

/** Cookie headers an anonymous caller may send: no session, a dead one, a broken header. */
const ANONYMOUS_COOKIES = fc.constantFrom('', '', '', 'hkmi_session=garbage', 'hkmi_session=', 'hkmi_session=%00%ff', '=;;=;', `hkmi_session=${'a'.repeat(4000)}`);

const CALLER = fc.oneof(
  { arbitrary: fc.constant<CallerName>('anonymous'), weight: 1 },
  { arbitrary: fc.constant<CallerName>('technician'), weight: 2 },
  { arbitrary: fc.constant<CallerName>('client'), weight: 2 },
  { arbitrary: fc.constant<CallerName>('admin'), weight: 5 },
);

/** One request for this route. */
export function requestArbitrary(route: FuzzRoute, context: RequestContext): fc.Arbitrary<FuzzRequest> {
  const wrongMethods = context.methods.filter((m) => m !== route.method);
  const method = fc.oneof({ arbitrary: fc.constant(route.method as string), weight: 14 }, { arbitrary: fc.constantFrom(...wrongMethods), weight: 1 });
  const pathNoise = fc.oneof({ arbitrary: fc.constant(''), weight: 20 }, { arbitrary: fc.constantFrom('/', '//', '/..', '%20', '.json', ';x=1', '%00'), weight: 1 });
  return fc
    .record({
      caller: CALLER,
      method,
      params: paramsArbitrary(route, context),
      query: queryArbitrary(route, context),
      body: bodyArbitrary(route, context),
      extra: EXTRA_HEADERS,
      range: RANGE,
      cookie: ANONYMOUS_COOKIES,
      pathNoise,
    })
    .map(({ caller, method: m, params, query, body, extra, range, cookie, pathNoise: noise }): FuzzRequest => {
      const path = route.url.replace(/[:*](\w*)/g, (_, name: string) => params[name || '*'] ?? '') + noise;
      const headers: Record<string, string> = { ...extra, ...(range === undefined ? {} : { range }), ...body.headers };
      if (caller === 'anonymous' && cookie) headers.cookie = cookie;
      const request: FuzzRequest = { route: `${route.method} ${route.url}`, caller, method: m, url: query ? `${path}?${query}` : path, headers, bodyKind: body.kind };
      if (body.payload !== undefined) request.payload = body.payload;
      return request;
    });
}
