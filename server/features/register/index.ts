/** The curve and station registers as sheets: their filters, the import (checked, then applied) and the export. */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import { createRegisterExportService } from './export-service.js';
import { createRegisterFiltersService } from './filters-service.js';
import { createRegisterImportService } from './import-service.js';
import { registerRoutes } from './routes.js';

export interface RegisterFeatureOptions {
  db: Db;
  appTimeZone: string;
}

export async function registerFeature(app: FastifyInstance, { db, appTimeZone }: RegisterFeatureOptions) {
  await app.register(registerRoutes, {
    filters: createRegisterFiltersService({ db }),
    importer: createRegisterImportService({ db }),
    exporter: createRegisterExportService({ db, appTimeZone, log: app.log }),
  });
}
