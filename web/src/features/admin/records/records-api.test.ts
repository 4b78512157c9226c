import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '../../../test/fetch-stub.js';
import { deletedCountOf, deleteImages, fileNameFromDisposition, parseDataSummary } from './records-api.js';

describe('answers read with the contract', () => {
  it('reads the three counts of the data summary, and nothing else', () => {
    expect(parseDataSummary({ curveRecords: 3, stations: 2, inspectionRecords: 1, extra: true })).toEqual({
      curveRecords: 3,
      stations: 2,
      inspectionRecords: 1,
    });
    for (const body of [null, 'x', {}, { curveRecords: '3', stations: 2, inspectionRecords: 1 }, { curveRecords: -1, stations: 2, inspectionRecords: 1 }]) {
      expect(() => parseDataSummary(body)).toThrow();
    }
  });

  it('reads deletedCount', () => {
    expect(deletedCountOf({ deletedCount: 2, notFound: [] })).toBe(2);
    expect(deletedCountOf({ deletedCount: 'two' })).toBeNull();
    expect(deletedCountOf(null)).toBeNull();
  });
});

describe('deleting many', () => {
  it('sends at most 500 IDs per call and adds up what each call deleted', async () => {
    const sent: number[] = [];
    stubFetch({
      'POST /api/images/delete': (request) => {
        const { imageIds } = JSON.parse(request.body ?? '{}') as { imageIds: string[] };
        sent.push(imageIds.length);
        return jsonResponse(200, { deletedCount: imageIds.length - 1, notFound: [imageIds[0]] });
      },
    });
    const ids = Array.from({ length: 1001 }, (_, i) => `INS-20261121-${String(i).padStart(6, '0')}`);
    expect(await deleteImages(ids)).toBe(998);
    expect(sent).toEqual([500, 500, 1]);
  });
});

describe('the file name of a download', () => {
  it.each([
    ['attachment; filename="inspection-images-3.zip"', 'inspection-images-3.zip'],
    ['attachment; filename=inspection_INS-20261121-7KQ2XM.jpg', 'inspection_INS-20261121-7KQ2XM.jpg'],
    ["attachment; filename=\"fallback.jpg\"; filename*=UTF-8''curve%20n%C2%B0%2012.jpg", 'curve n° 12.jpg'],
    ['attachment; filename="a \\"quoted\\" name.jpg"', 'a "quoted" name.jpg'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
  ])('reads %s', (header, name) => {
    expect(fileNameFromDisposition(header)).toBe(name);
  });

  it.each([null, 'attachment', 'attachment; filename=""', "attachment; filename*=UTF-8''%E0%A4%A"])('has none in %s', (header) => {
    expect(fileNameFromDisposition(header)).toBeNull();
  });
});
