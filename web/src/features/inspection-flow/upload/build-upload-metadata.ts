import { t } from '@lingui/core/macro';
import type { z } from 'zod';
import type { PublicUser } from '../../../../../common/schemas/auth.js';
import {
  inspectionEntryFields,
  serviceDetailsFields,
  type SessionEntry,
  uploadMetadataSchema,
  type UploadMetadataInput,
} from '../../../../../common/schemas/inspection.js';
import type { GeoFix } from '../../../../../common/rules/photo-overlay.js';

export type MetadataResult = { ok: true; metadata: UploadMetadataInput } | { ok: false; message: string };

const firstMessage = (error: z.ZodError) => error.issues[0]?.message ?? t`The inspection data is not valid`;

/** Blank form fields are sent as null, which the server stores as "not given". */
function orNull(value: string | undefined | null): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value;
}

/**
 * The entry keeps every field as text; the fields the contract types as a choice are read
 * through their shared schema, so an unknown value stops here with the schema's message.
 */
function choice<S extends z.ZodType>(schema: S, value: unknown): { ok: true; value: z.output<S> } | { ok: false; message: string } {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: firstMessage(parsed.error) };
}

/**
 * The `metadata` of POST /api/inspections/upload (docs/architecture.md, 'Entities and stored shapes'): the
 * stored entry, the signed-in technician and, when the device gave one, the position the
 * photo was taken at. The entry's clientSubmissionId goes with it unchanged, so every retry
 * of the same entry is recognised by the server and can never make a second record.
 * Checked with the shared schema before anything is sent.
 */
export function buildUploadMetadata(
  entry: SessionEntry,
  technician: Pick<PublicUser, 'employeeId' | 'name'>,
  position: GeoFix | null,
): MetadataResult {
  const line = choice(inspectionEntryFields.line, entry.line);
  if (!line.ok) return line;
  const location = choice(inspectionEntryFields.location, orNull(entry.location));
  if (!location.ok) return location;
  const serviceUpdate = choice(serviceDetailsFields.serviceUpdate, orNull(entry.serviceUpdate));
  if (!serviceUpdate.ok) return serviceUpdate;

  const metadata: UploadMetadataInput = {
    clientSubmissionId: entry.clientSubmissionId,
    date: entry.date,
    type: entry.type,
    divisionRailway: entry.divisionRailway,
    section: entry.section,
    curveNumber: entry.curveNumber,
    line: line.value,
    technicianId: technician.employeeId,
    technicianName: technician.name,
    cofValue: orNull(entry.cofValue),
    location: location.value,
    station1: orNull(entry.station1),
    station2: orNull(entry.station2),
    km: orNull(entry.km),
    pole1: orNull(entry.pole1),
    pole2: orNull(entry.pole2),
    railwayEngineer: orNull(entry.railwayEngineer),
    serviceUpdate: serviceUpdate.value,
    partCategory: orNull(entry.partCategory),
    partItemName: orNull(entry.partItemName),
    isMachineWorking: entry.isMachineWorking ?? null,
    greaseDepth: orNull(entry.greaseDepth),
    ...(position === null ? {} : { latitude: position.latitude, longitude: position.longitude, accuracy: position.accuracy }),
  };

  const checked = uploadMetadataSchema.safeParse(metadata);
  if (!checked.success) return { ok: false, message: firstMessage(checked.error) };
  return { ok: true, metadata };
}
