/**
 * The response serializer: each answer checked against its route's Zod response schema, then
 * JSON.stringify. fastify-type-provider-zod's own compiler does the same with zod's `safeEncode`
 * on every answer; encoding runs each schema twice down the tree (a check-less canary, then the
 * real pass) and never takes zod's fast forward path, so on a small answer it costs many times
 * what `safeParse` does: a large share of a light route's whole time.
 *
 * For a schema made only of parts whose decoding and encoding agree (no transforms, pipes or
 * codecs, defaults, catches...), parsing gives the same value encoding would: such a schema is
 * found once, at route registration, and served by `safeParse`. Any other keeps `safeEncode`.
 * Should a parse ever fail, the answer is encoded after all: a failure (a bug of ours) ends in
 * the very ResponseSerializationError, with the very cause, the library's compiler raised.
 */
import type { FastifySerializerCompiler } from 'fastify';
import { InvalidSchemaError, ResponseSerializationError } from 'fastify-type-provider-zod';
import { type $ZodLazy, $ZodType, type $ZodTypes, safeEncode, safeParse } from 'zod/v4/core';

/** The route's response schema as the library's compiler resolves it (and refuses it): a Zod schema, or one under `properties`. */
function responseSchemaOf(schema: unknown): $ZodType {
  if (schema instanceof $ZodType) return schema;
  if (typeof schema === 'object' && schema !== null && 'properties' in schema && schema.properties instanceof $ZodType) return schema.properties;
  throw new InvalidSchemaError(JSON.stringify(schema));
}

/** Checks that read only a container's size: the same on the value before and after it is parsed. */
const SIZE_CHECKS = new Set(['min_length', 'max_length', 'length_equals', 'min_size', 'max_size', 'size_equals', 'describe', 'meta']);

/**
 * Zod runs a schema's checks after parsing when decoding, before it when encoding. For a
 * primitive, parsing hands the value on untouched, so every check sees the same value either
 * way (an overwrite such as trim() returns the same type, by its signature). A container's
 * parse builds a new value (unknown keys stripped): a refinement could see the difference.
 */
function checksAgree(schema: $ZodTypes, isContainer: boolean): boolean {
  const checks = schema._zod.def.checks ?? [];
  if (!isContainer) return true;
  return checks.every((check) => SIZE_CHECKS.has(check._zod.def.check));
}

/**
 * Whether `safeParse` gives what `safeEncode` gives for every value, read from zod 4.6's
 * schemas.js: the types below take no notice of the direction. Any other (transform, pipe and
 * codec, preprocess, default, prefault, catch, success, readonly, promise, function) or any
 * coerced primitive: no.
 */
export function parsesAsItEncodes(root: $ZodType): boolean {
  // A recursive schema (z.lazy) comes back to a schema being looked at: true there, the rest of
  // the walk decides.
  const seen = new Set<$ZodType>();
  const walk = (node: $ZodType): boolean => {
    if (seen.has(node)) return true;
    seen.add(node);
    const schema = node as $ZodTypes;
    const def = schema._zod.def;
    switch (def.type) {
      case 'string':
      case 'number':
      case 'boolean':
      case 'bigint':
      case 'date':
        return !def.coerce && checksAgree(schema, false);
      case 'symbol':
      case 'null':
      case 'undefined':
      case 'void':
      case 'never':
      case 'any':
      case 'unknown':
      case 'nan':
      case 'enum':
      case 'literal':
      case 'template_literal':
      case 'file':
      case 'custom':
        return checksAgree(schema, false);
      case 'object':
        return (
          checksAgree(schema, true) &&
          Object.values(def.shape).every((property) => walk(property)) &&
          (def.catchall === undefined || walk(def.catchall))
        );
      case 'array':
        return checksAgree(schema, true) && walk(def.element);
      case 'tuple':
        return checksAgree(schema, true) && def.items.every((item) => walk(item)) && (def.rest === null || walk(def.rest));
      case 'record':
        return checksAgree(schema, true) && walk(def.keyType) && walk(def.valueType);
      case 'map':
        return checksAgree(schema, true) && walk(def.keyType) && walk(def.valueType);
      case 'set':
        return checksAgree(schema, true) && walk(def.valueType);
      // A discriminated union encodes by trying each option when the tag picks none: with options
      // that agree, only the issues of a failure differ (and a failure is encoded anyway, below).
      case 'union':
        return checksAgree(schema, true) && def.options.every((option) => walk(option));
      case 'intersection':
        return checksAgree(schema, true) && walk(def.left) && walk(def.right);
      case 'optional':
      case 'nullable':
      case 'nonoptional':
        return checksAgree(schema, true) && walk(def.innerType);
      case 'lazy':
        // The inner schema zod resolves once and keeps (the getter could make a new one each call).
        return checksAgree(schema, true) && walk((node as $ZodLazy)._zod.innerType);
      default:
        return false;
    }
  };
  return walk(root);
}

/** Fastify's serializer compiler for Zod response schemas (app.setSerializerCompiler). */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema: maybeSchema, method, url }) => {
  const schema = responseSchemaOf(maybeSchema);
  const encode = (data: unknown): string => {
    const result = safeEncode(schema, data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
  if (!parsesAsItEncodes(schema)) return encode;
  return (data: unknown): string => {
    const result = safeParse(schema, data);
    return result.success ? JSON.stringify(result.data) : encode(data);
  };
};
