/**
 * The requests the route fuzzer found answered wrongly, fixed since, kept here as plain
 * regression tests: each is the exact input, and the answer a client should get.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../build-test-app.js';
import { createUser, errorOf, signIn } from '../factories.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await buildTestApp();
  await createUser(t.database.db, { role: 'Admin', employeeId: 'FIND_ADM' });
  admin = await signIn(t.app, 'FIND_ADM');
});
afterAll(() => t.close());

const multipart = (url: string, payload: string) =>
  t.app.inject({ method: 'POST', url, headers: { cookie: admin, 'content-type': 'multipart/form-data; boundary=a' }, payload });

describe('a NUL character, which PostgreSQL cannot store in text', () => {
  it('in a path parameter, a query or a JSON body is a 400 naming the field, not a 500', async () => {
    const inPath = await t.app.inject({ method: 'DELETE', url: '/api/inspections/2147483648%00', headers: { cookie: admin } });
    expect(inPath.statusCode).toBe(400);
    expect(errorOf(inPath)).toMatchObject({ code: 'VALIDATION_FAILED', fields: { recordId: 'must not contain the NUL character' } });

    const inQuery = await t.app.inject({ method: 'GET', url: '/api/consolidated-curves?q=a%00b', headers: { cookie: admin } });
    expect(inQuery.statusCode).toBe(400);
    expect(errorOf(inQuery).fields).toEqual({ q: 'must not contain the NUL character' });

    const inBody = await t.app.inject({ method: 'POST', url: '/api/images/delete', headers: { cookie: admin }, payload: { imageIds: ['INS-1', 'a\u0000b'] } });
    expect(inBody.statusCode).toBe(400);
    expect(errorOf(inBody).fields).toEqual({ 'imageIds.1': 'must not contain the NUL character' });
  });
});

describe('a malformed multipart form', () => {
  it('that ends before its closing boundary is a 400, not a 500', async () => {
    for (const url of ['/api/import-excel', '/api/inspections/upload']) {
      const response = await multipart(url, '--a\r\nthis is not a part\r\n\r\n--');
      expect(response.statusCode, url).toBe(400);
      expect(errorOf(response).code).toBe('VALIDATION_FAILED');
    }
  });

  it('whose field says application/json but is not JSON is a 400 from the catalogue, not a 406', async () => {
    const response = await multipart('/api/import-excel', '--a\r\nContent-Disposition: form-data; name="type"\r\nContent-Type: application/json\r\n\r\n{not json\r\n--a--\r\n');
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).code).toBe('VALIDATION_FAILED');
  });

  it('with a 20 KB part that has no Content-Disposition is answered by the import (it hung)', async () => {
    const response = await multipart('/api/import-excel', `--a\r\n\r\n${'x'.repeat(20_000)}\r\n--a--\r\n`);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).message).toBe('type: type is required (curves or stations)');
  });
});
