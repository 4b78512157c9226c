/**
 * Readers for the deployment files (Dockerfile, compose.yaml, deploy/Caddyfile, .env.example),
 * for server/deployment.test.ts: these machines have no container runtime, so the files are
 * checked by reading them. Each reader covers the syntax those files use and refuses the rest,
 * so a construct it does not know fails the test instead of passing unread.
 */
import path from 'node:path';
import { parseDocument } from 'yaml';

// ---------------------------------------------------------------- Dockerfile

const DOCKERFILE_KEYWORDS = new Set(['FROM', 'RUN', 'CMD', 'LABEL', 'EXPOSE', 'ENV', 'ADD', 'COPY', 'ENTRYPOINT', 'VOLUME', 'USER', 'WORKDIR', 'ARG', 'STOPSIGNAL', 'HEALTHCHECK', 'SHELL']);

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface CopyInstruction {
  from: string | undefined;
  sources: string[];
  dest: string;
}

export interface Stage {
  image: string;
  name: string | undefined;
  instructions: Instruction[];
  workdir: string;
  env: Record<string, string>;
  copies: CopyInstruction[];
}

export interface Dockerfile {
  /** ARGs before the first FROM, with their defaults. */
  globalArgs: Record<string, string>;
  stages: Stage[];
}

/** Joins continued lines and drops comments; throws on an unknown instruction. */
export function dockerInstructions(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending: { text: string; line: number } | null = null;
  text.split('\n').forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const continued = trimmed.endsWith('\\');
    const part = continued ? trimmed.slice(0, -1).trim() : trimmed;
    pending = pending ? { text: `${pending.text} ${part}`, line: pending.line } : { text: part, line: index + 1 };
    if (continued) return;
    const [keyword = '', ...rest] = pending.text.split(/\s+/);
    if (!DOCKERFILE_KEYWORDS.has(keyword.toUpperCase())) throw new Error(`Dockerfile line ${pending.line}: unknown instruction '${keyword}'`);
    instructions.push({ keyword: keyword.toUpperCase(), args: rest.join(' '), line: pending.line });
    pending = null;
  });
  if (pending) throw new Error('Dockerfile ends inside a continued line');
  return instructions;
}

function keyValues(args: string, line: number): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const item of args.split(/\s+/).filter(Boolean)) {
    const at = item.indexOf('=');
    if (at <= 0) throw new Error(`Dockerfile line ${line}: '${item}' is not NAME=value (the reader takes only that form)`);
    pairs[item.slice(0, at)] = item.slice(at + 1).replace(/^"(.*)"$/, '$1');
  }
  return pairs;
}

export function parseDockerfile(text: string): Dockerfile {
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const instruction of dockerInstructions(text)) {
    const stage = stages[stages.length - 1];
    if (instruction.keyword === 'FROM') {
      const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!match?.[1]) throw new Error(`Dockerfile line ${instruction.line}: FROM image [AS name]`);
      const image = match[1].replace(/\$\{(\w+)\}/g, (_, name: string) => globalArgs[name] ?? '');
      stages.push({ image, name: match[2], instructions: [], workdir: '/', env: {}, copies: [] });
      continue;
    }
    if (!stage) {
      if (instruction.keyword !== 'ARG') throw new Error(`Dockerfile line ${instruction.line}: only ARG may come before FROM`);
      Object.assign(globalArgs, keyValues(instruction.args, instruction.line));
      continue;
    }
    stage.instructions.push(instruction);
    if (instruction.keyword === 'WORKDIR') stage.workdir = path.posix.resolve(stage.workdir, instruction.args);
    if (instruction.keyword === 'ENV') Object.assign(stage.env, keyValues(instruction.args, instruction.line));
    if (instruction.keyword === 'COPY' || instruction.keyword === 'ADD') {
      const words = instruction.args.split(/\s+/);
      const flags = words.filter((w) => w.startsWith('--'));
      const paths = words.filter((w) => !w.startsWith('--'));
      const dest = paths.pop();
      if (!dest || paths.length === 0 || instruction.args.startsWith('[')) throw new Error(`Dockerfile line ${instruction.line}: COPY [--from=stage] source... dest`);
      const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
      stage.copies.push({ from, sources: paths, dest: path.posix.resolve(stage.workdir, dest) + (dest.endsWith('/') ? '/' : '') });
    }
  }
  return { globalArgs, stages };
}

/** The exec form's words (`CMD ["node", "x.js"]`); the shell form is refused: its signals do not reach node. */
export function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((word) => typeof word === 'string')) throw new Error(`not an exec form: ${args}`);
  return parsed;
}

// ---------------------------------------------------------------- compose.yaml and .env

export interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  environment?: Record<string, string | number | boolean | null> | string[];
  volumes?: (string | { type?: string; source?: string; target?: string })[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  ports?: (string | number)[];
  healthcheck?: { test?: string | string[] };
  command?: string | string[];
  entrypoint?: string | string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** compose.yaml as Compose reads it: YAML merge keys (`<<: *app`) applied; any error or warning throws. */
export function parseCompose(text: string): ComposeFile {
  const document = parseDocument(text, { merge: true, uniqueKeys: true });
  const problems = [...document.errors, ...document.warnings];
  if (problems.length > 0) throw new Error(`compose.yaml: ${problems.map((p) => p.message).join('; ')}`);
  const compose = document.toJS() as ComposeFile;
  if (typeof compose.services !== 'object') throw new Error('compose.yaml has no services');
  return compose;
}

/** A service's environment as name -> text (the map and the list forms). */
export function environmentOf(service: ComposeService): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((item) => {
      const at = item.indexOf('=');
      return at < 0 ? [item, ''] : [item.slice(0, at), item.slice(at + 1)];
    }));
  }
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value === null ? '' : String(value)]));
}

export function dependsOn(service: ComposeService): Record<string, string> {
  const deps = service.depends_on ?? [];
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((name) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(deps).map(([name, dep]) => [name, dep.condition ?? 'service_started']));
}

/** Volume mounts as {source, target}; short syntax `source:target[:mode]` or the long one. */
export function mountsOf(service: ComposeService): { source: string; target: string }[] {
  return (service.volumes ?? []).map((volume) => {
    if (typeof volume === 'string') {
      const [source = '', target = ''] = volume.split(':');
      return { source, target };
    }
    return { source: volume.source ?? '', target: volume.target ?? '' };
  });
}

/** .env lines `NAME=value`; comments and blank lines skipped. */
export function parseDotEnv(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(trimmed);
    if (!match?.[1]) throw new Error(`.env line not NAME=value: ${trimmed}`);
    vars[match[1]] = match[2] ?? '';
  }
  return vars;
}

export interface Reference {
  name: string;
  /** `${NAME:?message}`: Compose refuses to start when it is unset or empty. */
  required: boolean;
  fallback: string | undefined;
}

const REFERENCE = /\$\$|\$\{(\w+)(?:(:?)([-?])([^}]*))?\}/g;

/** The ${NAME} references in a Compose value (`$$` is a literal dollar). */
export function referencesIn(value: string): Reference[] {
  const found: Reference[] = [];
  for (const match of value.matchAll(REFERENCE)) {
    if (!match[1]) continue;
    found.push({ name: match[1], required: match[3] === '?', fallback: match[3] === '-' ? (match[4] ?? '') : undefined });
  }
  return found;
}

/** A Compose value with its ${NAME} references filled from `vars`, as `docker compose` would. */
export function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(REFERENCE, (whole, name: string | undefined, colon: string | undefined, kind: string | undefined, rest: string | undefined) => {
    if (!name) return '$';
    const set = vars[name];
    const missing = set === undefined || (colon === ':' && set === '');
    if (kind === '?' && missing) throw new Error(`${name} is required: ${rest ?? whole}`);
    if (kind === '-' && missing) return rest ?? '';
    return set ?? '';
  });
}

// ---------------------------------------------------------------- Caddyfile

export interface CaddyProxy {
  upstreams: string[];
  healthUri: string | undefined;
}

/** The `reverse_proxy` blocks of a Caddyfile: their upstreams and active health check path. */
export function caddyReverseProxies(text: string): CaddyProxy[] {
  const lines = text.split('\n').map((line) => line.replace(/#.*$/, '').trim());
  const proxies: CaddyProxy[] = [];
  lines.forEach((line, index) => {
    const match = /^reverse_proxy\s+(.*?)\s*(\{)?$/.exec(line);
    if (!match) return;
    const upstreams = (match[1] ?? '').split(/\s+/).filter(Boolean);
    let healthUri: string | undefined;
    if (match[2]) {
      for (let i = index + 1, depth = 1; i < lines.length && depth > 0; i++) {
        const inner = lines[i] ?? '';
        depth += (inner.match(/\{/g)?.length ?? 0) - (inner.match(/\}/g)?.length ?? 0);
        const health = /^health_uri\s+(\S+)$/.exec(inner);
        if (health) healthUri = health[1];
      }
    }
    proxies.push({ upstreams, healthUri });
  });
  return proxies;
}
