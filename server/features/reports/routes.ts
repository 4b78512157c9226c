import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { maintenanceReportRequestSchema, maintenanceReportResponseSchema } from '../../../common/schemas/schedule.js';
import { attachment } from '../../content-disposition.js';
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
    '/api/reports/download/:reportId',
    { schema: { params: reportParams }, config: { access: access.roles('Admin', 'Client') } },
    async (request, reply) => {
      const file = await deps.reports.fileOf(currentUser(request), request.params.reportId);
      const etag = `"${file.hash}"`;
      // A report's bytes never change under its ID: the browser may keep it privately.
      void reply.headers({ etag, 'cache-control': 'private, max-age=3600', 'content-disposition': attachment(file.fileName) });
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      void reply.headers({ 'content-type': file.contentType, 'content-length': String(file.sizeBytes) });
      return reply.send(deps.blobs.stream(file.hash));
    },
  );
}
