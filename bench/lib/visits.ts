/**
 * One new inspection record through the product's upload (POST /api/inspections/upload), as a
 * phone sends it: the scenarios that measure an answer cached per data version use it to move the
 * version on (the statement trigger of migration 0001 bumps change_counters in the writing
 * transaction), on PGlite as on PostgreSQL, since the server holds PGlite's data dir.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { makeJpeg, uploadForm } from '../../server/test/photos.js';
import type { ScenarioContext } from './types.js';

export interface CurveKey {
  divisionRailway: string;
  section: string;
  curveNumber: string;
  line: string;
}

export const visitPhoto = (): Promise<Buffer> => makeJpeg(640, 480);

export async function uploadVisit(ctx: ScenarioContext, cookie: string, photo: Buffer, fields: Record<string, unknown>): Promise<{ ms: number; recordId: string; imageHash: string }> {
  const started = performance.now();
  const response = await fetch(`${ctx.baseUrl}/api/inspections/upload`, {
    method: 'POST',
    headers: { cookie },
    body: uploadForm({ ...fields, clientSubmissionId: fields.clientSubmissionId ?? randomUUID() }, photo),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 201) throw new Error(`POST /api/inspections/upload answered HTTP ${response.status}: ${text.slice(0, 300)}`);
  const answer = JSON.parse(text) as { recordId?: unknown; imageHash?: unknown };
  if (typeof answer.recordId !== 'string' || typeof answer.imageHash !== 'string') throw new Error(`the upload answered no recordId/imageHash: ${text.slice(0, 300)}`);
  return { ms, recordId: answer.recordId, imageHash: answer.imageHash };
}

export async function uploadCofVisit(ctx: ScenarioContext, cookie: string, photo: Buffer, curve: CurveKey, date: string, cofValue = '0.20'): Promise<number> {
  const { divisionRailway, section, curveNumber, line } = curve;
  const fields = { date, type: 'CoF', divisionRailway, section, curveNumber, line, cofValue, location: 'Near End' };
  return (await uploadVisit(ctx, cookie, photo, fields)).ms;
}
