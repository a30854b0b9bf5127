import type { Config } from '../env';
import { DeferredStorage } from './deferred-storage';
import { DiskStorage } from './disk-storage';
import type { MediaStorage } from './storage';

/**
 * Disk under DATA_DIR/media unless S3_BUCKET is set (CONTRACT.md "Configuration"). The S3 SDK
 * (about 20 MB resident) is imported only when a bucket is configured; the import starts here,
 * so the first upload does not wait for it.
 */
export function createStorage(config: Config): MediaStorage {
  const bucket = config.S3_BUCKET;
  if (bucket) {
    const s3 = import('./s3-storage').then(
      ({ S3Storage }) =>
        new S3Storage({
          bucket,
          region: config.S3_REGION,
          endpoint: config.S3_ENDPOINT,
          accessKeyId: config.AWS_ACCESS_KEY_ID,
          secretAccessKey: config.AWS_SECRET_ACCESS_KEY,
        }),
    );
    return new DeferredStorage('s3', s3);
  }
  return new DiskStorage(config.dataDir);
}

/** Public base of media files: MEDIA_URL, else the API's own /media/. Always ends with a slash. */
export function mediaBaseUrl(config: Config): string {
  const base =
    config.MEDIA_URL ?? `${config.API_URL ?? `http://localhost:${config.API_PORT}`}/media/`;
  return base.endsWith('/') ? base : `${base}/`;
}
