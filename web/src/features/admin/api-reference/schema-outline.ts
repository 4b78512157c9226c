/**
 * A JSON Schema of the OpenAPI document as an outline a person reads: each field with its type,
 * whether it is required, the values it may take and its limits, nested fields indented.
 * References into the document's components are followed (a few levels: the outline is for
 * reading, not for validating).
 */

type Json = Record<string, unknown>;

export interface OutlineNode {
  /** The field's name; undefined for the schema itself, an array's items or a variant. */
  name?: string;
  required: boolean;
  /** JSON Schema's type names ('string', 'integer', 'object', 'array'...), or 'file' for bytes of a media type. */
  types: string[];
  nullable: boolean;
  /** The only values it may take. */
  values?: unknown[];
  /** format, media type, length and range limits, as `keyword: value`. */
  limits: string[];
  description?: string;
  /** An object's fields, an array's items (one node), or the variants of a choice. */
  children: OutlineNode[];
  /** The children are variants (anyOf / oneOf) rather than fields. */
  choice: boolean;
}

const MAX_DEPTH = 8;
const LIMIT_KEYWORDS = ['format', 'contentMediaType', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'pattern', 'default'] as const;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema a `#/components/schemas/...` reference names, or undefined. */
function resolveRef(ref: string, components: Json): Json | undefined {
  const prefix = '#/components/schemas/';
  if (!ref.startsWith(prefix)) return undefined;
  const target = components[decodeURIComponent(ref.slice(prefix.length))];
  return isObject(target) ? target : undefined;
}

/** allOf's parts and $ref merged into one schema (later parts' fields win, as the error answers narrow `code`). */
function flatten(schema: Json, components: Json, depth: number): Json {
  let merged: Json = { ...schema };
  if (typeof merged.$ref === 'string' && depth < MAX_DEPTH) {
    const target = resolveRef(merged.$ref, components);
    const { $ref: _ref, ...rest } = merged;
    merged = target ? { ...flatten(target, components, depth + 1), ...rest } : rest;
  }
  if (Array.isArray(merged.allOf)) {
    const { allOf, ...rest } = merged;
    let result: Json = rest;
    for (const part of allOf) {
      if (!isObject(part)) continue;
      const flat = flatten(part, components, depth + 1);
      result = {
        ...result,
        ...flat,
        properties: { ...(isObject(result.properties) ? result.properties : {}), ...(isObject(flat.properties) ? mergeProperties(result.properties, flat.properties) : {}) },
        required: [...new Set([...(Array.isArray(result.required) ? result.required : []), ...(Array.isArray(flat.required) ? flat.required : [])])],
      };
    }
    merged = result;
  }
  return merged;
}

/** A field named in two parts keeps both parts' keywords (the later part's win). */
function mergeProperties(earlier: unknown, later: Json): Json {
  const before = isObject(earlier) ? earlier : {};
  return Object.fromEntries(Object.entries(later).map(([name, schema]) => [name, { ...(isObject(before[name]) ? before[name] : {}), ...(isObject(schema) ? schema : {}) }]));
}

export function outline(schema: unknown, components: Json, name?: string, required = false, depth = 0): OutlineNode {
  const node: OutlineNode = { ...(name === undefined ? {} : { name }), required, types: [], nullable: false, limits: [], children: [], choice: false };
  if (!isObject(schema) || depth > MAX_DEPTH) return node;
  const flat = flatten(schema, components, depth);
  if (typeof flat.description === 'string') node.description = flat.description;

  const variants = [flat.anyOf, flat.oneOf].find(Array.isArray)?.filter(isObject) ?? [];
  if (variants.length > 0) {
    const nonNull = variants.filter((variant) => variant.type !== 'null');
    node.nullable = nonNull.length < variants.length;
    if (nonNull.length === 1 && nonNull[0]) {
      const only = outline(nonNull[0], components, name, required, depth + 1);
      return { ...only, nullable: true, description: only.description ?? node.description };
    }
    node.choice = true;
    node.children = nonNull.map((variant) => outline(variant, components, undefined, false, depth + 1));
    return node;
  }

  const types = Array.isArray(flat.type) ? flat.type.filter((t): t is string => typeof t === 'string') : typeof flat.type === 'string' ? [flat.type] : [];
  node.nullable = types.includes('null');
  node.types = types.filter((t) => t !== 'null');
  if (node.types.length === 0 && isObject(flat.properties)) node.types = ['object'];
  if (node.types[0] === 'string' && typeof flat.contentMediaType === 'string' && flat.contentSchema === undefined) node.types = ['file'];
  if (Array.isArray(flat.enum)) node.values = flat.enum;
  else if ('const' in flat) node.values = [flat.const];
  for (const keyword of LIMIT_KEYWORDS) {
    if (flat[keyword] !== undefined) node.limits.push(`${keyword}: ${typeof flat[keyword] === 'string' ? flat[keyword] : JSON.stringify(flat[keyword])}`);
  }

  if (isObject(flat.properties)) {
    const requiredNames = Array.isArray(flat.required) ? flat.required : [];
    node.children = Object.entries(flat.properties).map(([field, fieldSchema]) => outline(fieldSchema, components, field, requiredNames.includes(field), depth + 1));
  }
  if (isObject(flat.additionalProperties)) node.children.push(outline(flat.additionalProperties, components, '*', false, depth + 1));
  if (isObject(flat.items)) node.children = [outline(flat.items, components, undefined, false, depth + 1)];
  // A JSON text inside a form field (the upload's metadata): its own fields.
  if (isObject(flat.contentSchema)) node.children = outline(flat.contentSchema, components, undefined, false, depth + 1).children;
  return node;
}
