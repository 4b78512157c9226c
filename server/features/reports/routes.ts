import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { reportListQuerySchema, reportListResponseSchema } from '../../../common/schemas/reports.js';
import { maintenanceReportRequestSchema, maintenanceReportResponseSchema } from '../../../common/schemas/schedule.js';
import { attachment } from '../../content-disposition.js';
import { sendStoredFile } from '../../http-range.js';
import { access, currentActor, currentUser } from '../../plugins/access.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { CurveMaintenanceReport } from './curve-maintenance.js';
import type { ReportService } from './service.js';

const reportParams = z.object({ reportId: z.uuid({ error: 'reportId must be a report ID' }) });

export async function reportRoutes(
  app: FastifyInstance,
  deps: { reports: ReportService; curveMaintenance: CurveMaintenanceReport; blobs: BlobStore },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/reports/curve-maintenance',
    {
      schema: { body: maintenanceReportRequestSchema, response: { 200: maintenanceReportResponseSchema } },
      config: { access: access.roles('Admin', 'Client') },
    },
    async (request) => deps.curveMaintenance.generate(currentActor(request), request.body),
  );

  r.get(
    '/api/reports',
    {
      schema: { querystring: reportListQuerySchema, response: { 200: reportListResponseSchema } },
      config: { access: access.roles('Admin', 'Client') },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return { reports: await deps.reports.recent(currentUser(request), request.query) };
    },
  );

  r.get(
    '/api/reports/download/:reportId',
    { schema: { params: reportParams }, config: { access: access.roles('Admin', 'Client') } },
    async (request, reply) => {
      const file = await deps.reports.fileOf(currentUser(request), request.params.reportId);
      // A report's bytes never change under its ID: the browser may keep it privately; a cut
      // download resumes with a Range request.
      return sendStoredFile(request, reply, deps.blobs, { ...file, disposition: attachment(file.fileName) }, 'private, max-age=3600');
    },
  );
}
