/**
 * An S3 look-alike (s3rver, on local disk) for tests of the S3 blob store and of servers that
 * use it: on a free port of 127.0.0.1, with one fresh bucket, and no network. A test file
 * calls `stop()` in afterAll.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { createS3Client } from '../storage/s3-client.js';

export interface TestS3Server {
  /** http://127.0.0.1:<port>; address it path-style (forcePathStyle). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where s3rver keeps the bucket's objects. */
  directory: string;
  /** A client for this server, closed by stop(). */
  client: S3Client;
  stop(): Promise<void>;
}

export async function startS3Server(): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  // s3rver checks signatures against its one account.
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  const region = 'us-east-1';
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const client = createS3Client({ endpoint, region, accessKeyId, secretAccessKey, forcePathStyle: true });
  const stop = async () => {
    client.destroy();
    const closed = server.close();
    // Kept-alive connections (this client's, a child server's) would hold close() open.
    server.httpServer?.closeAllConnections();
    await closed;
    await rm(directory, { recursive: true, force: true });
  };
  const bucket = `test-${randomUUID()}`;
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, bucket, region, accessKeyId, secretAccessKey, directory, client, stop };
}
