/** One new inspection record through the upload, as a phone sends it: moves a cached answer's data version on (PGlite too). */
import { randomUUID } from 'node:crypto';
import { makeJpeg, uploadForm } from '../../server/test/photos.js';
import { parsedJson, timedFetch } from './records.js';
import type { ScenarioContext } from './types.js';

export interface CurveKey {
  divisionRailway: string;
  section: string;
  curveNumber: string;
  line: string;
}

export const visitPhoto = (): Promise<Buffer> => makeJpeg(640, 480);

export async function uploadVisit(ctx: ScenarioContext, cookie: string, photo: Buffer, fields: Record<string, unknown>): Promise<{ ms: number; recordId: string; imageHash: string }> {
  const body = uploadForm({ ...fields, clientSubmissionId: fields.clientSubmissionId ?? randomUUID() }, photo);
  const { status, text, ms } = await timedFetch(`${ctx.baseUrl}/api/inspections/upload`, { method: 'POST', headers: { cookie }, body }, 60_000);
  if (status !== 201) throw new Error(`POST /api/inspections/upload answered HTTP ${status}: ${text.slice(0, 300)}`);
  const answer = (parsedJson(text) ?? {}) as { recordId?: unknown; imageHash?: unknown };
  if (typeof answer.recordId !== 'string' || typeof answer.imageHash !== 'string') throw new Error(`the upload answered no recordId/imageHash: ${text.slice(0, 300)}`);
  return { ms, recordId: answer.recordId, imageHash: answer.imageHash };
}

export async function uploadCofVisit(ctx: ScenarioContext, cookie: string, photo: Buffer, curve: CurveKey, date: string, cofValue = '0.20'): Promise<number> {
  const { divisionRailway, section, curveNumber, line } = curve;
  const fields = { date, type: 'CoF', divisionRailway, section, curveNumber, line, cofValue, location: 'Near End' };
  return (await uploadVisit(ctx, cookie, photo, fields)).ms;
}
