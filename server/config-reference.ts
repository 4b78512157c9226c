/**
 * docs/configuration.md, made from server/config.ts: each setting's name, type and default from
 * its Zod schema, what it does from SETTING_DESCRIPTIONS. `npm run docs:config` writes the file;
 * config-reference.test.ts fails when the committed file differs, so it cannot drift.
 */
import { z } from 'zod';
import { envSchema, SETTING_DESCRIPTIONS, type SettingName } from './config.js';

export const CONFIGURATION_REFERENCE_PATH = 'docs/configuration.md';

export interface SettingReference {
  name: SettingName;
  type: string;
  /** The schema's default as the variable would be written; undefined: none. */
  default: string | undefined;
  does: string;
  unset: string | undefined;
}

interface SchemaLayer {
  _zod: { def: { type: string; innerType?: SchemaLayer; in?: SchemaLayer; defaultValue?: unknown; format?: string } };
  options?: readonly string[];
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
}

/** The layers of a setting's schema from the outside in: default, optional, the pipe's input side. */
function layers(schema: SchemaLayer): SchemaLayer[] {
  const found: SchemaLayer[] = [];
  let current: SchemaLayer | undefined = schema;
  while (current) {
    found.push(current);
    const def: SchemaLayer['_zod']['def'] = current._zod.def;
    current = def.type === 'default' || def.type === 'optional' ? def.innerType : def.type === 'pipe' ? def.in : undefined;
  }
  return found;
}

const finite = (n: number | null | undefined): n is number => typeof n === 'number' && Math.abs(n) < Number.MAX_SAFE_INTEGER;

function typeOf(schemaLayers: SchemaLayer[]): string {
  for (const layer of schemaLayers) {
    const declared = z.globalRegistry.get(layer as unknown as z.ZodType)?.settingType;
    if (typeof declared === 'string') return declared;
  }
  const base = schemaLayers[schemaLayers.length - 1];
  if (!base) return 'text';
  const def = base._zod.def;
  if (def.type === 'enum' && base.options) return `one of ${base.options.map((o) => `\`${o}\``).join(', ')}`;
  if (def.type === 'number') {
    const kind = base.isInt ? 'whole number' : 'number';
    return finite(base.minValue) && finite(base.maxValue) ? `${kind}, ${base.minValue}-${base.maxValue}` : kind;
  }
  if (def.type === 'string' && def.format === 'url') return 'URL';
  return 'text';
}

function defaultOf(schemaLayers: SchemaLayer[]): string | undefined {
  const withDefault = schemaLayers.find((layer) => layer._zod.def.type === 'default');
  if (!withDefault) return undefined;
  const value = withDefault._zod.def.defaultValue;
  if (value === '' || (Array.isArray(value) && value.length === 0)) return 'empty';
  return `\`${String(value)}\``;
}

export function settingReferences(): SettingReference[] {
  return (Object.keys(envSchema.shape) as SettingName[]).map((name) => {
    const schemaLayers = layers(envSchema.shape[name] as unknown as SchemaLayer);
    const description = SETTING_DESCRIPTIONS[name] as { does: string; unset?: string } | undefined;
    return {
      name,
      type: typeOf(schemaLayers),
      default: defaultOf(schemaLayers),
      does: description?.does ?? '',
      unset: description?.unset,
    };
  });
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function renderConfigurationReference(): string {
  const rows = settingReferences().map((s) => {
    const fallback = s.default ?? (s.unset ? `unset: ${s.unset}` : 'unset');
    return `| \`${s.name}\` | ${cell(s.type)} | ${cell(fallback)} | ${cell(s.does)} |`;
  });
  return [
    '# Configuration reference',
    '',
    '<!-- Written by `npm run docs:config` from server/config.ts (the schema and SETTING_DESCRIPTIONS): edit those, not this file. -->',
    '',
    'Every setting is an environment variable, read and checked in `server/config.ts` only. A bad',
    'value stops the start with one line naming the variable. An empty variable counts as unset.',
    '`npm run backup` and `npm run restore` read the same settings as the server.',
    '',
    '| variable | type | default | what it does |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
