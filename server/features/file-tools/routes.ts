import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fileStatusQuerySchema, fileTaskParamsSchema, fileTaskSchema, type FileTaskKind } from '../../../common/schemas/file-tools.js';
import { access, currentActor } from '../../plugins/access.js';
import type { FileToolsService } from './service.js';

/** How long a request waits for its task before answering 202 and letting the view follow it. */
const QUICK_WAIT_MS = 3000;
const taskAnswers = { 200: fileTaskSchema, 202: fileTaskSchema };
const adminOnly = { access: access.roles('Admin') };

export async function fileToolRoutes(app: FastifyInstance, deps: { fileTools: FileToolsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { fileTools } = deps;

  /** Starts (or joins) a task, waits a moment: 200 with it done, else 202 with it running. */
  async function startAndWait(kind: FileTaskKind, request: Parameters<typeof currentActor>[0], page: number, pageSize: number) {
    const started = await fileTools.start(kind, currentActor(request));
    const row = await fileTools.waitFor(started.id, QUICK_WAIT_MS);
    return { status: row.state === 'running' ? (202 as const) : (200 as const), body: await fileTools.present(row, page, pageSize) };
  }

  // Spec: GET /api/admin/files/status returns summary{missing, total}. With no taskId a check
  // starts (a check only reads: asking again is harmless); with one, that check is read again.
  r.get('/api/admin/files/status', { schema: { querystring: fileStatusQuerySchema, response: taskAnswers }, config: adminOnly }, async (request, reply) => {
    const { taskId, page, pageSize } = request.query;
    if (taskId) {
      const row = await fileTools.task(taskId, 'check');
      return reply.status(row.state === 'running' ? 202 : 200).send(await fileTools.present(row, page, pageSize));
    }
    const { status, body } = await startAndWait('check', request, page, pageSize);
    return reply.status(status).send(body);
  });

  r.post('/api/admin/files/restore', { schema: { response: taskAnswers }, config: adminOnly }, async (request, reply) => {
    const { status, body } = await startAndWait('restore', request, 1, 20);
    return reply.status(status).send(body);
  });

  r.post('/api/admin/files/recreate', { schema: { response: taskAnswers }, config: adminOnly }, async (request, reply) => {
    const { status, body } = await startAndWait('recreate', request, 1, 20);
    return reply.status(status).send(body);
  });

  /** The newest task of each kind: a view opened later finds one still running, or its result. */
  r.get('/api/admin/files/tasks', { schema: { response: { 200: z.object({ tasks: z.array(fileTaskSchema) }) } }, config: adminOnly }, async () => {
    const rows = await fileTools.latest();
    return { tasks: await Promise.all(rows.map((row) => fileTools.present(row))) };
  });

  r.get('/api/admin/files/tasks/:taskId', { schema: { params: fileTaskParamsSchema, response: { 200: fileTaskSchema } }, config: adminOnly }, async (request) => {
    return fileTools.present(await fileTools.task(request.params.taskId));
  });
}
