import type { Config } from '../env';
import { DiskStorage } from './disk-storage';
import { S3Storage } from './s3-storage';
import type { MediaStorage } from './storage';

/** Disk under DATA_DIR/media unless S3_BUCKET is set (CONTRACT.md "Configuration"). */
export function createStorage(config: Config): MediaStorage {
  if (config.S3_BUCKET) {
    return new S3Storage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.AWS_ACCESS_KEY_ID,
      secretAccessKey: config.AWS_SECRET_ACCESS_KEY,
    });
  }
  return new DiskStorage(config.dataDir);
}

/** Public base of media files: MEDIA_URL, else the API's own /media/. Always ends with a slash. */
export function mediaBaseUrl(config: Config): string {
  const base =
    config.MEDIA_URL ?? `${config.API_URL ?? `http://localhost:${config.API_PORT}`}/media/`;
  return base.endsWith('/') ? base : `${base}/`;
}
