import { ResponseSerializationError, serializerCompiler as libraryCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { healthResponseSchema } from '../common/schemas/auth.js';
import { parsesAsItEncodes, serializerCompiler } from './response-serializer.js';

const route = (schema: z.ZodType) => ({ schema, method: 'GET', url: '/api/test', httpStatus: '200' });
const ours = (schema: z.ZodType) => serializerCompiler(route(schema));
const library = (schema: z.ZodType) => libraryCompiler(route(schema));

/** What a serializer answers for `data`: its JSON, or the error it throws. */
function outcome(serialize: (data: unknown) => string, data: unknown): { json: string } | { error: unknown } {
  try {
    return { json: serialize(data) };
  } catch (error) {
    return { error };
  }
}

const isoDate = z.codec(z.iso.datetime(), z.date(), {
  decode: (text) => new Date(text),
  encode: (date) => date.toISOString(),
});

interface Tree {
  name: string;
  children: Tree[];
}
const tree: z.ZodType<Tree> = z.lazy(() => z.object({ name: z.string(), children: z.array(tree) }));

describe('parsesAsItEncodes', () => {
  it('takes a schema of plain parts (objects, arrays, unions, optional and nullable leaves, a recursive lazy)', () => {
    expect(parsesAsItEncodes(healthResponseSchema)).toBe(true);
    const plain = z.object({
      id: z.number().int().min(1),
      name: z.string().trim().min(1),
      tags: z.array(z.enum(['a', 'b'])).max(3),
      when: z.iso.datetime().nullable(),
      kind: z.discriminatedUnion('type', [z.object({ type: z.literal('x'), x: z.number() }), z.object({ type: z.literal('y') })]),
      extra: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
      tree,
    });
    expect(parsesAsItEncodes(plain)).toBe(true);
  });

  it('refuses any part whose encoding differs from its parsing, however deep', () => {
    const inside = (part: z.ZodType) => z.object({ list: z.array(z.object({ value: part })) });
    for (const part of [
      isoDate,
      z.string().transform((s) => s.length),
      z.string().pipe(z.string().min(1)),
      z.preprocess((v) => v, z.string()),
      z.string().default('x'),
      z.string().prefault('x'),
      z.string().catch('x'),
      z.object({ a: z.string() }).readonly(),
      z.coerce.number(),
      z.object({ a: z.string() }).refine((o) => Object.keys(o).length === 1),
      z.array(z.string()).superRefine(() => undefined),
    ]) {
      expect(parsesAsItEncodes(inside(part))).toBe(false);
    }
  });
});

describe('serializerCompiler', () => {
  const plain = z.object({ id: z.number(), name: z.string(), note: z.string().nullable(), tags: z.array(z.string()).optional() });
  const withCodec = z.object({ id: z.number(), at: isoDate });

  it('answers what the library answers, for a plain schema (parsed) and one with a codec (encoded)', () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    const cases: Array<[z.ZodType, unknown]> = [
      [plain, { id: 1, name: 'a', note: null, unknown: 'stripped' }],
      [plain, { name: 'a', note: 'n', tags: ['x'], id: 2 }],
      [withCodec, { id: 1, at, unknown: true }],
      [healthResponseSchema, { status: 'ok', database: 'ok', version: '0.1.0', demo: false }],
      [tree, { name: 'root', children: [{ name: 'leaf', children: [], extra: 1 }] }],
    ];
    for (const [schema, data] of cases) {
      expect(ours(schema)(data)).toBe(library(schema)(data));
    }
    expect(JSON.parse(ours(withCodec)({ id: 1, at }))).toEqual({ id: 1, at: '2026-01-02T03:04:05.000Z' });
  });

  it('fails as the library fails: the same ResponseSerializationError with the same cause', () => {
    const cases: Array<[z.ZodType, unknown]> = [
      [plain, { id: 'one', name: 'a', note: null }],
      [plain, null],
      [withCodec, { id: 1, at: 'not a date' }],
      [z.object({ n: z.string().transform((s) => s.length) }), { n: 'abc' }],
      [z.array(z.string()).max(1), ['a', 'b', 3]],
    ];
    for (const [schema, data] of cases) {
      const mine = outcome(ours(schema), data);
      const theirs = outcome(library(schema), data);
      expect('error' in mine && 'error' in theirs).toBe(true);
      if (!('error' in mine) || !('error' in theirs)) continue;
      expect(mine.error).toBeInstanceOf(Object.getPrototypeOf(theirs.error).constructor);
      expect(mine.error).toMatchObject({ message: (theirs.error as Error).message });
      if (theirs.error instanceof ResponseSerializationError) {
        expect(mine.error).toBeInstanceOf(ResponseSerializationError);
        expect(mine.error).toMatchObject({ method: 'GET', url: '/api/test' });
        expect(String((mine.error as Error).cause)).toBe(String(theirs.error.cause));
      }
    }
  });
});
