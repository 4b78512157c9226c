/**
 * Arbitraries derived from the routes' shared Zod schemas. Each schema is turned into JSON
 * Schema by Zod itself (`z.toJSONSchema`, input side: what a client sends, before transforms),
 * and that is walked into a fast-check arbitrary of valid-ish values: the right keys, types,
 * enums, lengths, patterns and ranges. Refinements are code, not data, so a few domain hints
 * (divisions, dates, the fixture's sections, record IDs ...) chosen by property name fill the
 * gaps; mostly-valid requests then reach the services, not only the validator. `mutated` then
 * breaks such a value in one to three places.
 */
import fc from 'fast-check';
import { z, type ZodType } from 'zod';
import { hostileValue } from './hostile.js';

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

/** A domain value for a property of this name and schema, or undefined to use the schema alone. */
export type Hints = (key: string, schema: JsonSchema) => fc.Arbitrary<unknown> | undefined;

export function jsonSchemaOf(schema: ZodType): JsonSchema {
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    // A schema Zod cannot describe: any JSON will do.
    return {};
  }
}

/** The property names of an object schema (for query strings and extra keys). */
export function propertyNames(schema: JsonSchema): string[] {
  return Object.keys(schema.properties ?? {});
}

const INT32 = 2 ** 31;

function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace(/^#\/\$defs\//, '');
  return root.$defs?.[name] ?? {};
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid({ version: 4 });
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern));
    } catch {
      // A pattern fast-check cannot generate from: plain text below.
    }
  }
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 24, 60));
  return fc.oneof(
    { arbitrary: fc.string({ minLength, maxLength }), weight: 3 },
    { arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }), weight: 1 },
  );
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 1e-9) : -INT32);
  const high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : 1e-9) : INT32);
  const min = Math.max(low, -Number.MAX_SAFE_INTEGER);
  const max = Math.min(high, Number.MAX_SAFE_INTEGER);
  const ints = fc.integer({ min: Math.ceil(Math.max(min, -INT32)), max: Math.floor(Math.min(max, INT32 - 1)) });
  if (integer) {
    // Small values most of the time: they are the ones that find rows.
    const small = fc.integer({ min: Math.ceil(Math.max(min, -3)), max: Math.floor(Math.min(max, 30)) });
    return Math.ceil(Math.max(min, -3)) <= Math.floor(Math.min(max, 30)) ? fc.oneof({ arbitrary: small, weight: 3 }, { arbitrary: ints, weight: 1 }) : ints;
  }
  return fc.oneof(ints, fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
}

/** Valid-ish values of a JSON Schema; `key` is the property the value is for (for hints). */
export function validish(schema: JsonSchema, hints: Hints, key = '', root: JsonSchema = schema): fc.Arbitrary<unknown> {
  const s = resolve(schema, root);
  const fromSchema = schemaArbitrary(s, hints, key, root);
  const hint = key ? hints(key, s) : undefined;
  if (!hint || s.enum || s.const !== undefined || s.type === 'object' || s.type === 'array' || s.type === 'boolean') return fromSchema;
  return fc.oneof({ arbitrary: hint, weight: 4 }, { arbitrary: fromSchema, weight: 1 });
}

function schemaArbitrary(s: JsonSchema, hints: Hints, key: string, root: JsonSchema): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum && s.enum.length > 0) return fc.constantFrom(...s.enum);
  const union = s.anyOf ?? s.oneOf;
  if (union && union.length > 0) return fc.oneof(...union.map((member) => validish(member, hints, key, root)));
  if (s.allOf && s.allOf[0]) return validish(s.allOf[0], hints, key, root);
  if (Array.isArray(s.type)) return fc.oneof(...s.type.map((type) => schemaArbitrary({ ...s, type }, hints, key, root)));
  switch (s.type) {
    case 'string':
      return stringArbitrary(s);
    case 'integer':
      return numberArbitrary(s, true);
    case 'number':
      return numberArbitrary(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = s.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(s.maxItems ?? 4, 4));
      return fc.array(validish(s.items ?? {}, hints, key, root), { minLength, maxLength });
    }
    case 'object': {
      const properties = s.properties ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) model[name] = validish(property, hints, name, root);
      const required = (s.required ?? []).filter((name) => name in properties);
      return fc.record(model, { requiredKeys: required });
    }
    default:
      // No type: any JSON value, or a hint for this key.
      return hints(key, s) ?? fc.jsonValue({ maxDepth: 2 });
  }
}

type Path = Array<string | number>;

/** Every place in a JSON value: the value itself ([]) and each key or index below it. */
function pathsOf(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(value)) value.forEach((item, i) => pathsOf(item, [...path, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) pathsOf(v, [...path, k], out);
  return out;
}

function clone(value: unknown): unknown {
  return value === undefined ? undefined : structuredClone(value);
}

type Mutation = { kind: 'set' | 'delete' | 'extra' | 'wrap'; at: number; value: unknown; name: string };

function applyMutation(value: unknown, given: Mutation): unknown {
  // The hostile values are shared constants: each mutation puts in its own copy.
  const mutation = { ...given, value: clone(given.value) };
  const paths = pathsOf(value);
  const path = paths[mutation.at % paths.length] ?? [];
  if (path.length === 0) {
    if (mutation.kind === 'wrap') return [value];
    if (mutation.kind === 'extra' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return { ...value, [mutation.name]: mutation.value };
    }
    return mutation.kind === 'delete' ? {} : mutation.value;
  }
  const parentPath = path.slice(0, -1);
  const last = path[path.length - 1] as string | number;
  let parent: unknown = value;
  for (const step of parentPath) parent = (parent as Record<string | number, unknown>)[step];
  const container = parent as Record<string | number, unknown>;
  switch (mutation.kind) {
    case 'set':
      container[last] = mutation.value;
      break;
    case 'delete':
      if (Array.isArray(container) && typeof last === 'number') container.splice(last, 1);
      else delete container[last];
      break;
    case 'wrap':
      container[last] = [container[last]];
      break;
    case 'extra':
      if (Array.isArray(container)) container.push(mutation.value);
      else container[mutation.name] = mutation.value;
      break;
  }
  return value;
}

const mutationArbitrary: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('set', 'set', 'set', 'delete', 'extra', 'wrap'),
  at: fc.nat(),
  value: hostileValue,
  name: fc.oneof(fc.constantFrom('id', 'role', 'isOwner', 'divisionAccess', 'technicianId', 'employeeId', '__proto__', ''), fc.string({ maxLength: 10 })),
});

/** A valid-ish value broken in one to three places: wrong types, missing and extra keys, hostile strings. */
export function mutated(base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(base, fc.array(mutationArbitrary, { minLength: 1, maxLength: 3 })).map(([value, mutations]) => {
    let out = clone(value);
    for (const mutation of mutations) out = applyMutation(out, mutation);
    return out;
  });
}
