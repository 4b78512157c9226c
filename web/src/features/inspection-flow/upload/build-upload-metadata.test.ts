import { describe, expect, it } from 'vitest';
import { uploadMetadataSchema } from '../../../../../common/schemas/inspection.js';
import { technician } from '../../../test/users.js';
import { buildUploadMetadata } from './build-upload-metadata.js';
import { cofEntry, serviceEntry } from './entry-fixtures.js';

function metadataOf(result: ReturnType<typeof buildUploadMetadata>) {
  if (!result.ok) throw new Error(`expected metadata, got: ${result.message}`);
  return result.metadata;
}

describe('buildUploadMetadata', () => {
  it('takes the technician from the signed-in user and keeps the entry clientSubmissionId', () => {
    const metadata = metadataOf(buildUploadMetadata(serviceEntry, technician, null));
    expect(metadata.technicianId).toBe('TECH001');
    expect(metadata.technicianName).toBe('Ravi Kumar');
    expect(metadata.clientSubmissionId).toBe(serviceEntry.clientSubmissionId);
  });

  it('carries every field of the spec Upload metadata for a Service inspection, blanks as null', () => {
    expect(metadataOf(buildUploadMetadata(serviceEntry, technician, null))).toEqual({
      clientSubmissionId: serviceEntry.clientSubmissionId,
      date: '2025-03-04',
      type: 'Service',
      divisionRailway: 'RTM/WR',
      section: 'RTM-NAD',
      curveNumber: 'C-17',
      line: 'Up',
      technicianId: 'TECH001',
      technicianName: 'Ravi Kumar',
      cofValue: '0.',
      location: null,
      station1: 'RTM',
      station2: null,
      km: null,
      pole1: null,
      pole2: null,
      railwayEngineer: 'A. Sharma',
      serviceUpdate: 'part-broken',
      partCategory: 'Pump',
      partItemName: 'Gear pump',
      isMachineWorking: 'no',
      greaseDepth: '2.5',
    });
  });

  it.each(['yes', 'no'] as const)("sends isMachineWorking '%s' as answered on the review", (answer) => {
    const metadata = metadataOf(buildUploadMetadata({ ...serviceEntry, isMachineWorking: answer }, technician, null));
    expect(metadata.isMachineWorking).toBe(answer);
    expect(uploadMetadataSchema.parse(metadata).isMachineWorking).toBe(answer === 'yes');
  });

  it('stops a Service inspection without the machine answer, with the schema message', () => {
    const result = buildUploadMetadata({ ...serviceEntry, isMachineWorking: undefined }, technician, null);
    expect(result).toEqual({ ok: false, message: 'Please answer: Is the Machine working?' });
  });

  it('sends the CoF value and location of a CoF measurement', () => {
    const metadata = metadataOf(buildUploadMetadata(cofEntry, technician, null));
    expect(metadata).toMatchObject({ type: 'CoF', cofValue: '0.25', location: 'Far End', km: '12/4', line: 'Single', isMachineWorking: null });
  });

  it('adds latitude, longitude and accuracy only when the device gave a position', () => {
    const withFix = metadataOf(buildUploadMetadata(cofEntry, technician, { latitude: 30.9, longitude: 74.6, accuracy: 8 }));
    expect(withFix).toMatchObject({ latitude: 30.9, longitude: 74.6, accuracy: 8 });
    const withoutFix = metadataOf(buildUploadMetadata(cofEntry, technician, null));
    expect(withoutFix).not.toHaveProperty('latitude');
    expect(withoutFix).not.toHaveProperty('accuracy');
  });

  it('stops an entry the server would refuse, with the first schema message', () => {
    expect(buildUploadMetadata({ ...cofEntry, line: 'Sideways' }, technician, null)).toEqual({ ok: false, message: 'Please select a line' });
    expect(buildUploadMetadata({ ...cofEntry, cofValue: '0.' }, technician, null)).toEqual({ ok: false, message: 'CoF value is required' });
    expect(buildUploadMetadata({ ...cofEntry, clientSubmissionId: 'abc' }, technician, null)).toEqual({ ok: false, message: 'clientSubmissionId must be a UUID' });
  });
});
