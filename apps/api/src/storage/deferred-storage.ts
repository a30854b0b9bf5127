import type { Readable } from 'node:stream';
import type { MediaStorage, PutOptions, StoredObject, Visibility } from './storage';

/**
 * A storage whose implementation is still being loaded: every call waits for it. Lets
 * create-storage.ts import the S3 SDK only in processes configured for a bucket, without
 * making storage creation asynchronous.
 */
export class DeferredStorage implements MediaStorage {
  private loaded: MediaStorage | undefined;
  private readonly ready: Promise<MediaStorage>;

  constructor(
    readonly kind: MediaStorage['kind'],
    load: Promise<MediaStorage>,
  ) {
    this.ready = load.then((storage) => (this.loaded = storage));
    // A failed load surfaces in the calls that need the storage, not as an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  async put(key: string, body: Buffer | Readable, opts: PutOptions): Promise<void> {
    return (await this.ready).put(key, body, opts);
  }

  async putFile(key: string, file: string, opts: PutOptions): Promise<void> {
    return (await this.ready).putFile(key, file, opts);
  }

  async get(key: string, visibility: Visibility): Promise<Readable | null> {
    return (await this.ready).get(key, visibility);
  }

  async download(key: string, visibility: Visibility, file: string): Promise<boolean> {
    return (await this.ready).download(key, visibility, file);
  }

  async exists(key: string, visibility: Visibility): Promise<boolean> {
    return (await this.ready).exists(key, visibility);
  }

  async *list(visibility: Visibility): AsyncIterable<StoredObject> {
    yield* (await this.ready).list(visibility);
  }

  async delete(keys: string[], visibility: Visibility): Promise<void> {
    return (await this.ready).delete(keys, visibility);
  }

  async close(): Promise<void> {
    // Closing before the load finished waits for it, so no client is left open.
    const storage = this.loaded ?? (await this.ready.catch(() => undefined));
    await storage?.close();
  }
}
