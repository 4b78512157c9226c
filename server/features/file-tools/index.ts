/** The owner's file tools: status check, restore from the backups by hash, recreate derived files. */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { PhotoFiles } from '../inspections/index.js';
import { fileToolRoutes } from './routes.js';
import { createFileToolsService } from './service.js';

export interface FileToolsFeatureOptions {
  db: Db;
  blobs: BlobStore;
  photoFiles: PhotoFiles;
  backupDir: string;
  now: () => Date;
}

export async function fileToolsFeature(app: FastifyInstance, options: FileToolsFeatureOptions) {
  const fileTools = createFileToolsService({ ...options, log: app.log });
  app.addHook('onReady', async () => fileTools.tidy());
  app.addHook('onClose', async () => fileTools.stop());
  await app.register(fileToolRoutes, { fileTools });
}
