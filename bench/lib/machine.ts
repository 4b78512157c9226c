import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from './server.js';

export interface MachineFacts {
  date: string;
  node: string;
  platform: string;
  arch: string;
  cpus: { count: number; model: string };
  totalMemoryMb: number;
  /** 1, 5 and 15 minute load averages when the run started: a busy machine skews every figure. */
  loadAverage: number[];
  appVersion: string | null;
  gitCommit: string | null;
}

export function machineFacts(): MachineFacts {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    arch: process.arch,
    cpus: { count: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length, model: cpus[0]?.model.trim() ?? 'unknown' },
    totalMemoryMb: Math.round(os.totalmem() / 1024 / 1024),
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
    appVersion: appVersion(),
    gitCommit: gitCommit(),
  };
}

function appVersion(): string | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));
    if (parsed && typeof parsed === 'object' && 'version' in parsed && typeof parsed.version === 'string') return parsed.version;
  } catch {
    // Only for the report.
  }
  return null;
}

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}
