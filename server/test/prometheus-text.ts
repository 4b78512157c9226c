/**
 * A strict reader of Prometheus's text exposition format (version 0.0.4), for tests: every line
 * is a HELP, a TYPE or a sample of a declared family, or the read fails naming the line.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** Family name -> its TYPE. */
  types: Map<string, string>;
  samples: Sample[];
  /** The value of the one sample of `name` whose labels include `labels`; undefined when none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*,?)?\\})? (\\S+)(?: (-?\\d+))?$`);
const LABEL_EACH = new RegExp(`([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"`, 'g');
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count'] };

/** As Prometheus reads a value (Go's ParseFloat): the special values in any case (prom-client writes NaN as 'Nan'). */
function parseValue(text: string): number {
  if (/^\+?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`not a sample value: ${text}`);
  return Number(text);
}

function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  for (const [family, type] of types) {
    if ((SUFFIXES[type] ?? []).some((suffix) => name === family + suffix)) return family;
  }
  return undefined;
}

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const helps = new Set<string>();
  const samples: Sample[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    const where = `line ${index + 1}: ${line}`;
    if (line === '') continue;
    if (line.startsWith('# HELP ')) {
      const match = new RegExp(`^# HELP (${NAME}) (.*)$`).exec(line);
      if (!match?.[1] || helps.has(match[1])) throw new Error(`a bad or repeated HELP, ${where}`);
      helps.add(match[1]);
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const match = new RegExp(`^# TYPE (${NAME}) (\\w+)$`).exec(line);
      if (!match?.[1] || !match[2] || !TYPES.has(match[2]) || types.has(match[1])) throw new Error(`a bad or repeated TYPE, ${where}`);
      types.set(match[1], match[2]);
      continue;
    }
    if (line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match?.[1] || match[3] === undefined) throw new Error(`not a sample, ${where}`);
    const name = match[1];
    if (!familyOf(name, types)) throw new Error(`a sample before its TYPE, ${where}`);
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? '').matchAll(LABEL_EACH)) {
      const [, key = '', raw = ''] = label;
      if (key in labels) throw new Error(`a repeated label, ${where}`);
      labels[key] = raw.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ name, labels, value: parseValue(match[3]) });
  }
  return {
    types,
    samples,
    value(name, labels = {}) {
      const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
  };
}
