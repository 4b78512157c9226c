import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  inspectionReportRequestSchema,
  reportIdParamsSchema,
  reportJobResponseSchema,
  reportListQuerySchema,
  reportListResponseSchema,
  reportSummarySchema,
  serviceReportRequestSchema,
  sseReportRequestSchema,
} from '../../../common/schemas/reports.js';
import { actionReportRequestSchema } from '../../../common/schemas/actions.js';
import { analyticsExportQuerySchema, analyticsReportRequestSchema } from '../../../common/schemas/analytics.js';
import { machineReportResponseSchema, machineStatsQuerySchema } from '../../../common/schemas/machines.js';
import { maintenanceReportRequestSchema, maintenanceReportResponseSchema } from '../../../common/schemas/schedule.js';
import { attachment } from '../../content-disposition.js';
import { AppError } from '../../app-error.js';
import { sendStoredFile } from '../../http-range.js';
import { access, currentActor, currentUser } from '../../plugins/access.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { CurveMaintenanceReport } from './curve-maintenance.js';
import type { InspectionPdfReport } from './inspection-pdf.js';
import type { MachineReport } from './machine-xlsx.js';
import type { ActionReport } from './follow-up-actions-xlsx.js';
import type { AnalyticsPdfReport } from './analytics-pdf.js';
import type { AnalyticsExport } from './analytics-xlsx.js';
import { jobResponseOf, QUICK_WAIT_MS } from './record-reports.js';
import type { ReportService } from './service.js';
import type { ServiceTablePdfReport } from './service-table-pdf.js';
import type { SseCofPdfReport } from './sse-cof-pdf.js';

/** How long POST /api/reports/service-table waits to answer the PDF itself (the spec's blob). */
const SERVICE_TABLE_WAIT_MS = 5 * 60 * 1000;
const jobAnswers = { 200: reportJobResponseSchema, 202: reportJobResponseSchema };

/** RFC 7240: a client that can follow a job's progress asks not to wait for the file. */
const wantsAsync = (prefer: string | string[] | undefined) => [prefer ?? []].flat().some((p) => /\brespond-async\b/i.test(p));

export async function reportRoutes(
  app: FastifyInstance,
  deps: {
    reports: ReportService;
    curveMaintenance: CurveMaintenanceReport;
    inspectionPdf: InspectionPdfReport;
    sseCofPdf: SseCofPdfReport;
    serviceTablePdf: ServiceTablePdfReport;
    machineReport: MachineReport;
    actionReport: ActionReport;
    analyticsPdf: AnalyticsPdfReport;
    analyticsExport: AnalyticsExport;
    blobs: BlobStore;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const reportAccess = { access: access.roles('Admin', 'Client') };

  // The three PDF reports are jobs: 200 when made within a moment, else 202 and the view
  // follows GET /api/reports/{reportId} until it is done.
  r.post('/api/reports/generate', { schema: { body: inspectionReportRequestSchema, response: jobAnswers }, config: reportAccess }, async (request, reply) => {
    const { done, body } = await deps.inspectionPdf.generate(currentActor(request), request.body);
    return reply.status(done ? 200 : 202).send(body);
  });

  r.post(
    '/api/reports/follow-up-actions',
    { schema: { body: actionReportRequestSchema, response: jobAnswers }, config: reportAccess },
    async (request, reply) => {
      const { done, body } = await deps.actionReport.generate(currentActor(request), request.body);
      return reply.status(done ? 200 : 202).send(body);
    },
  );

  r.post('/api/reports/analytics', { schema: { body: analyticsReportRequestSchema, response: jobAnswers }, config: reportAccess }, async (request, reply) => {
    const { done, body } = await deps.analyticsPdf.generate(currentActor(request), request.body);
    return reply.status(done ? 200 : 202).send(body);
  });

  // One chart's data, made while it downloads (a few hundred rows at most): not a job.
  r.get('/api/analytics/export', { schema: { querystring: analyticsExportQuerySchema }, config: reportAccess }, async (request, reply) => {
    const { fileName, contentType, stream } = await deps.analyticsExport.open(currentUser(request), request.query);
    void reply.headers({ 'content-type': contentType, 'content-disposition': attachment(fileName), 'cache-control': 'private, no-store' });
    return reply.send(stream);
  });

  r.post('/api/reports/sse-table', { schema: { body: sseReportRequestSchema, response: jobAnswers }, config: reportAccess }, async (request, reply) => {
    const { done, body } = await deps.sseCofPdf.generate(currentActor(request), request.body);
    return reply.status(done ? 200 : 202).send(body);
  });

  // The spec answers the PDF itself; with `Prefer: respond-async` it answers like the others.
  r.post('/api/reports/service-table', { schema: { body: serviceReportRequestSchema, response: jobAnswers }, config: reportAccess }, async (request, reply) => {
    const user = currentUser(request);
    const queued = await deps.serviceTablePdf.queue(currentActor(request), request.body);
    const async = wantsAsync(request.headers.prefer);
    const row = await deps.reports.waitFor(queued.id, async ? QUICK_WAIT_MS : SERVICE_TABLE_WAIT_MS);
    if (async || row.status !== 'done') {
      if (row.status === 'failed') throw new AppError('REPORT_FAILED', row.error ?? 'Failed to generate service report');
      if (async) void reply.header('preference-applied', 'respond-async');
      return reply.status(row.status === 'done' ? 200 : 202).send(jobResponseOf(row));
    }
    const file = await deps.reports.fileOf(user, row.id);
    void reply.header('x-report-id', row.id);
    return sendStoredFile(request, reply, deps.blobs, { ...file, disposition: attachment(file.fileName) }, 'private, no-store');
  });

  r.get('/api/reports/:reportId', { schema: { params: reportIdParamsSchema, response: { 200: reportSummarySchema } }, config: reportAccess }, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return deps.reports.status(currentUser(request), request.params.reportId);
  });

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
    '/api/machine-report',
    { schema: { querystring: machineStatsQuerySchema, response: { 200: machineReportResponseSchema } }, config: reportAccess },
    async (request) => deps.machineReport.generate(currentActor(request), request.query),
  );

  // A report's bytes never change under its ID, but who may read them is checked on every use:
  // the browser revalidates what it kept (304 by ETag, no bytes), so a shared phone's next user
  // is asked who they are. A cut download resumes with a Range request. The spec downloads the
  // machine report from /api/download/{reportId}; both paths serve any report the user may see.
  const download = async (request: FastifyRequest<{ Params: { reportId: string } }>, reply: FastifyReply) => {
    const file = await deps.reports.fileOf(currentUser(request), request.params.reportId);
    return sendStoredFile(request, reply, deps.blobs, { ...file, disposition: attachment(file.fileName) }, 'private, no-cache');
  };
  r.get('/api/reports/download/:reportId', { schema: { params: reportIdParamsSchema }, config: reportAccess }, download);
  r.get('/api/download/:reportId', { schema: { params: reportIdParamsSchema }, config: reportAccess }, download);
}
