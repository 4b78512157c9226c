/**
 * Runs once before the server tests: builds a migrated database template, so each test
 * file starts from a fresh copy in a fraction of the time a migration takes.
 * PGlite: a gzipped data-dir dump. PostgreSQL: a template database.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const kind = project.config.env.TEST_DB;
  const cleanups: Array<() => Promise<void>> = [];

  if (kind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const template = `hkmi_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const database = await openDatabase({ databaseUrl: withDatabase(url, template), poolSize: 1 });
    await database.migrate();
    await database.close();
    project.provide('postgresTemplate', template);
    project.provide('pgliteTemplatePath', '');
    cleanups.push(async () => {
      // Drop the template and every per-file database made from it.
      const { rows } = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like $1`,
        [`hkmi_t%_${process.pid}%`],
      );
      for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
      await admin.end();
    });
  } else {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-pglite-template-'));
    const pglite = await PGlite.create();
    const database = await openDatabase({ pglite });
    await database.migrate();
    const dump = await pglite.dumpDataDir('gzip');
    const file = path.join(dir, 'template.tar.gz');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    await database.close();
    project.provide('pgliteTemplatePath', file);
    project.provide('postgresTemplate', '');
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
  }

  return async () => {
    for (const cleanup of cleanups) await cleanup();
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
