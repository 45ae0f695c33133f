/**
 * The S3 store: an S3-compatible bucket (AWS S3, MinIO, Ceph, R2 ...), named
 * by FILES_URL. Objects are `<entity id>/<file id>.<ext>`: ids do not change,
 * where an entity's folder name (its name) may. Path-style addresses
 * (`host/bucket/key`), which every S3-compatible server answers; checksums
 * only where the API requires them, which older compatible servers accept.
 * Short timeouts and one retry: an unreachable store fails an upload in
 * seconds (503 FILE_STORE_UNAVAILABLE), not after the SDK's long defaults.
 * The object is put before the transaction that records it and deleted when
 * that transaction fails.
 */
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Location } from '../../config.js';
import { type FileKey, FileMissing, type FileStore, storeUnavailable } from './storage.js';

export interface S3Timeouts {
  /** To open a connection. */
  connectMs: number;
  /** Of silence on an open connection (an object of 20 MB takes longer, but never stays silent that long). */
  requestMs: number;
}

export const S3_TIMEOUTS: S3Timeouts = { connectMs: 3000, requestMs: 30_000 };

const isMissing = (e: unknown) => {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
};

export function s3Store(location: S3Location, timeouts: S3Timeouts = S3_TIMEOUTS): FileStore & { close(): void } {
  const client = new S3Client({
    endpoint: location.endpoint,
    region: location.region,
    forcePathStyle: true,
    credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey },
    maxAttempts: 2,
    requestHandler: { connectionTimeout: timeouts.connectMs, requestTimeout: timeouts.requestMs },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const objectKey = (key: FileKey) => `${key.entityId}/${key.id}.${key.extension}`;
  const get = async (key: FileKey) => {
    try {
      const res = await client.send(new GetObjectCommand({ Bucket: location.bucket, Key: objectKey(key) }));
      if (!res.Body) throw new FileMissing('s3', key);
      return res.Body;
    } catch (e) {
      if (e instanceof FileMissing) throw e;
      throw isMissing(e) ? new FileMissing('s3', key) : storeUnavailable('s3', e);
    }
  };
  const remove = async (key: FileKey) => {
    try {
      await client.send(new DeleteObjectCommand({ Bucket: location.bucket, Key: objectKey(key) }));
    } catch (e) {
      throw storeUnavailable('s3', e);
    }
  };
  return {
    kind: 's3',
    async stage(key, bytes) {
      try {
        await client.send(new PutObjectCommand({ Bucket: location.bucket, Key: objectKey(key), Body: bytes, ContentLength: bytes.length }));
      } catch (e) {
        throw storeUnavailable('s3', e);
      }
    },
    async commit() {},
    discard: remove,
    async open(_db, key) {
      return (await get(key)) as Readable;
    },
    async read(_db, key) {
      const body = await get(key);
      try {
        return Buffer.from(await body.transformToByteArray());
      } catch (e) {
        throw storeUnavailable('s3', e);
      }
    },
    remove: (_db, key) => remove(key),
    close: () => client.destroy(),
  };
}
