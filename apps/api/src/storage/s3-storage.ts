/**
 * Media in an S3-compatible bucket. Derivatives are written public-read (MEDIA_URL points at
 * the bucket or a CDN in front of it); originals and identity documents go under `private/`
 * with no public grant.
 */
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  assertObjectName,
  type MediaStorage,
  type PutOptions,
  type StoredObject,
  type Visibility,
} from './storage';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

export class S3Storage implements MediaStorage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;

  constructor(opts: S3StorageOptions) {
    const config: S3ClientConfig = {
      region: opts.region,
      // SPEC.md §9: three attempts; the SDK corrects clock skew by itself.
      maxAttempts: 3,
      // An unreachable server fails the upload in seconds (503), never holds it for minutes.
      requestHandler: { connectionTimeout: 3000, requestTimeout: 60_000 },
    };
    if (opts.endpoint) {
      config.endpoint = opts.endpoint;
      config.forcePathStyle = true;
    }
    if (opts.accessKeyId && opts.secretAccessKey) {
      config.credentials = {
        accessKeyId: opts.accessKeyId,
        secretAccessKey: opts.secretAccessKey,
      };
    }
    this.client = new S3Client(config);
    this.bucket = opts.bucket;
  }

  private objectKey(key: string, visibility: Visibility): string {
    assertObjectName(key);
    return visibility === 'public' ? key : `private/${key}`;
  }

  async put(key: string, body: Buffer | Readable, opts: PutOptions): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: this.objectKey(key, opts.visibility),
        Body: body,
        ContentType: opts.contentType,
        ...(opts.cacheControl ? { CacheControl: opts.cacheControl } : {}),
        ...(opts.visibility === 'public' ? { ACL: 'public-read' as const } : {}),
      },
      queueSize: 2,
      leavePartsOnError: false,
    });
    await upload.done();
  }

  async putFile(key: string, file: string, opts: PutOptions): Promise<void> {
    await this.put(key, fs.createReadStream(file), opts);
  }

  async get(key: string, visibility: Visibility): Promise<Readable | null> {
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key, visibility) }),
      );
      return res.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async download(key: string, visibility: Visibility, file: string): Promise<boolean> {
    const body = await this.get(key, visibility);
    if (!body) return false;
    await pipeline(body, fs.createWriteStream(file));
    return true;
  }

  async exists(key: string, visibility: Visibility): Promise<boolean> {
    try {
      await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key, visibility) }),
      );
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  /** Private objects are the ones under `private/`; every other object is public. */
  async *list(visibility: Visibility): AsyncIterable<StoredObject> {
    let token: string | undefined;
    do {
      const res = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          ContinuationToken: token,
          ...(visibility === 'private' ? { Prefix: 'private/' } : {}),
        }),
      );
      for (const o of res.Contents ?? []) {
        if (!o.Key) continue;
        const isPrivate = o.Key.startsWith('private/');
        if (isPrivate !== (visibility === 'private')) continue;
        yield {
          key: isPrivate ? o.Key.slice('private/'.length) : o.Key,
          size: o.Size ?? 0,
          modified: o.LastModified ?? new Date(),
        };
      }
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
  }

  async delete(keys: string[], visibility: Visibility): Promise<void> {
    if (keys.length === 0) return;
    await this.client.send(
      new DeleteObjectsCommand({
        Bucket: this.bucket,
        Delete: { Objects: keys.map((k) => ({ Key: this.objectKey(k, visibility) })), Quiet: true },
      }),
    );
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
