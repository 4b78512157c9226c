import { randomUUID } from 'node:crypto';
import { makeJpeg } from '../../server/test/photos.js';
import { inTurn, RECORDS_LIST_PATHS } from '../lib/load.js';
import { loadScenario, repeatedWrites } from '../lib/load-row.js';
import { inspectionPage, READ_BUDGET } from '../lib/records.js';
import { round } from '../lib/stats.js';
import { uploadVisit } from '../lib/visits.js';

const PAGE = 50;
const UPLOADS_PER_SECOND = 2;

// inspections-page while records arrive: every upload empties the server's page cache (README).
export const inspectionsPageWrites = loadScenario({
  name: 'inspections-page-writes',
  description: `inspections-page while a Technician uploads ${UPLOADS_PER_SECOND} records per second, 50 connections; bare ceiling: the same pages of inspection_logs`,
  budget: READ_BUDGET,
  dataset: 'records',
  as: 'Admin',
  ceiling: 'inspections-page',
  remark: "measured without writes: the bare route has no cache to empty, and the uploads' own work (sharp, sha256, the row) is the product's alone",
  async prepare(ctx, admin) {
    const technician = await ctx.signIn(ctx.demo.byRole('Technician').employeeId);
    const photo = await makeJpeg(1920, 1080);
    // Each upload a new photo (its id after the JPEG's end marker): the same bytes would be stored once.
    const uploads = repeatedWrites(UPLOADS_PER_SECOND, () => {
      const id = randomUUID();
      const fields = { date: new Date().toISOString().slice(0, 10), type: 'CoF', divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '1', line: 'Up', cofValue: '0.30', clientSubmissionId: id };
      return uploadVisit(ctx, technician, Buffer.concat([photo, Buffer.from(id)]), fields);
    });
    return {
      load: inTurn(RECORDS_LIST_PATHS),
      notes: [],
      during: uploads.start,
      stop: uploads.stop,
      async after(result) {
        const { ms, failed } = uploads.figures;
        const notes = [`${ms.length} records uploaded during the measured phase (${failed} failed); each emptied the page cache`];
        result.errors += failed;
        // What one page costs when it must be made again, alone: right after an upload, then once more.
        await uploads.once();
        const timedPage = async (query: string) => round((await inspectionPage(ctx, admin, query)).ms, 2);
        const cold = await timedPage(`limit=${PAGE}&offset=0`);
        const warm = await timedPage(`limit=${PAGE}&offset=0`);
        const count = await timedPage('limit=1&offset=0&q=INS-');
        notes.push(`alone: the first page right after an upload ${cold} ms, again ${warm} ms; a new filter's first count over everything ${count} ms`);
        return notes;
      },
    };
  },
});
