/** The built web app as a phone gets it: compressed when the phone accepts it, routes to index.html. */
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { Database } from '../db/client.js';
import { DiskBlobStore } from '../storage/disk-blob-store.js';
import { TEST_CONFIG } from '../test/build-test-app.js';
import { openTestDatabase } from '../test/test-database.js';

let app: FastifyInstance;
let database: Database;
let root: string;
const script = Buffer.from(`export const answer = ${JSON.stringify('x'.repeat(4000))};\n`);

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'hkmi-web-'));
  await mkdir(path.join(root, 'assets'));
  await writeFile(path.join(root, 'index.html'), '<!doctype html><title>HKMI</title>');
  // What scripts/compress-web.mjs leaves beside each asset after the build.
  await writeFile(path.join(root, 'assets', 'index-abc.js'), script);
  await writeFile(path.join(root, 'assets', 'index-abc.js.br'), brotliCompressSync(script));
  await writeFile(path.join(root, 'assets', 'index-abc.js.gz'), gzipSync(script));
  database = await openTestDatabase();
  app = await buildApp({ config: TEST_CONFIG, database, blobs: new DiskBlobStore(path.join(root, 'blobs')), webRoot: root });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
  await rm(root, { recursive: true, force: true });
});

describe('the web app', () => {
  it('sends an asset brotli-compressed to a browser that accepts it, as JavaScript, cached for a year', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/index-abc.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toContain('immutable');
    expect(response.rawPayload.length).toBeLessThan(script.length / 10);
    expect(brotliDecompressSync(response.rawPayload)).toEqual(script);
  });

  it('sends the plain file to a client that accepts no compression', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/index-abc.js', headers: { 'accept-encoding': 'identity' } });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload).toEqual(script);
  });

  it('answers an app route with index.html', async () => {
    const response = await app.inject({ method: 'GET', url: '/admin?view=records-management' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>HKMI</title>');
  });

  it('answers /metrics with a plain 404, as a missing file, when no METRICS_TOKEN made it a route (not the app page)', async () => {
    const missingFile = await app.inject({ method: 'GET', url: '/missing.png' });
    const response = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer anything-at-all-0123' } });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe(missingFile.headers['content-type']);
    expect(response.body).toBe(missingFile.body);
  });
});
