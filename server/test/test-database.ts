import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../db/client.js';
import { withDatabase } from './global-setup.js';

/** Which database this test run uses: the vitest project sets TEST_DB. */
export const testDatabaseKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/** A fresh, migrated, empty database for one test file. */
export async function openTestDatabase(): Promise<Database> {
  if (testDatabaseKind === 'postgres') {
    return openDatabase({ databaseUrl: await createPostgresTestDatabase(), poolSize: 4 });
  }
  const dump = await readFile(inject('pgliteTemplatePath'));
  const pglite = await PGlite.create({ loadDataDir: new Blob([dump]) });
  return openDatabase({ pglite });
}

/** PostgreSQL only: the URL of a fresh, migrated database (dropped by the global teardown). */
export async function createPostgresTestDatabase(): Promise<string> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const template = inject('postgresTemplate');
  const name = `hkmi_t${randomBytes(4).toString('hex')}_${template.split('_').pop()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await createFromTemplate(admin, name, template);
  } finally {
    await admin.end();
  }
  return withDatabase(url, name);
}

async function createFromTemplate(admin: pg.Client, name: string, template: string) {
  // Two files copying the template at the same moment can collide; a short retry settles it.
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`create database ${name} template ${template}`);
      return;
    } catch (error) {
      if (attempt >= 20 || !String(error).includes('being accessed by other users')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}

/** PostgreSQL only: the URL of an empty database, no schema at all (a restore's target; dropped by the global teardown). */
export async function createEmptyPostgresTestDatabase(): Promise<string> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const name = `hkmi_t${randomBytes(4).toString('hex')}_${inject('postgresTemplate').split('_').pop()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template template0`);
  } finally {
    await admin.end();
  }
  return withDatabase(url, name);
}

/** An empty database, no schema at all: a restore's target. */
export async function openEmptyTestDatabase(): Promise<Database> {
  if (testDatabaseKind === 'postgres') return openDatabase({ databaseUrl: await createEmptyPostgresTestDatabase(), poolSize: 4 });
  return openDatabase({ pglite: await PGlite.create() });
}
