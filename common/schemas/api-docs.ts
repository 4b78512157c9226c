/**
 * The OpenAPI document as GET /api/openapi.json answers it, in the parts the API reference page
 * reads: operations by path and method, each with its tag, summary, access rule (`x-access`),
 * parameters, request body and answers by status. Anything else the document holds is kept.
 */
import { z } from 'zod';
import { ROLES } from '../constants.js';

const jsonSchema = z.record(z.string(), z.unknown());

export const openApiAccessSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('public') }),
  z.object({ kind: z.literal('signed-in') }),
  z.object({ kind: z.literal('roles'), roles: z.array(z.enum(ROLES)) }),
  z.object({ kind: z.literal('owner') }),
]);
export type OpenApiAccess = z.infer<typeof openApiAccessSchema>;

const mediaSchema = z.looseObject({ schema: jsonSchema.optional() });

export const openApiOperationSchema = z.looseObject({
  operationId: z.string(),
  summary: z.string(),
  description: z.string().optional(),
  tags: z.array(z.string()),
  'x-access': openApiAccessSchema,
  parameters: z.array(z.looseObject({ name: z.string(), in: z.string(), required: z.boolean().optional(), schema: jsonSchema.optional() })).optional(),
  requestBody: z.looseObject({ content: z.record(z.string(), mediaSchema) }).optional(),
  responses: z.record(z.string(), z.looseObject({ description: z.string().optional(), content: z.record(z.string(), mediaSchema).optional() })),
});
export type OpenApiOperation = z.infer<typeof openApiOperationSchema>;

export const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string(), description: z.string().optional() }),
  paths: z.record(z.string(), z.record(z.string(), openApiOperationSchema)),
  components: z.looseObject({ schemas: z.record(z.string(), jsonSchema).optional() }).optional(),
});
export type OpenApiDocument = z.infer<typeof openApiDocumentSchema>;
