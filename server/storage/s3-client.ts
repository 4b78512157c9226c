/**
 * The S3 protocol's plumbing the S3 blob store stands on: a client for the configured service
 * and the reading of its answers (error names and HTTP statuses differ between AWS and the
 * S3-compatible services).
 */
import { S3Client } from '@aws-sdk/client-s3';

export interface S3Settings {
  /** For an S3-compatible service (MinIO, R2...); unset for AWS itself. */
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key`: what most S3-compatible services need. */
  forcePathStyle: boolean;
}

/** A client for these settings: their keys when both are given, else the SDK's default chain (environment, profile, instance role). */
export function createS3Client(settings: S3Settings): S3Client {
  const { endpoint, region, accessKeyId, secretAccessKey, forcePathStyle } = settings;
  return new S3Client({
    region,
    forcePathStyle,
    ...(endpoint ? { endpoint } : {}),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
  });
}

/** CopyObject's source, `bucket/key`, URL-encoded as S3 wants it. */
export function copySource(bucket: string, key: string): string {
  return [bucket, ...key.split('/')].map(encodeURIComponent).join('/');
}

export function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

export function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

/** No such key (not: no such bucket, which is a setup error to surface). */
export function isMissingKey(error: unknown): boolean {
  const name = errorName(error);
  return name === 'NoSuchKey' || name === 'NotFound';
}
