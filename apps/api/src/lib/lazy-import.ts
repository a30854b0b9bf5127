/**
 * A module loaded on first use instead of at start-up. Modules that only some requests or some
 * configurations need (sharp and libvips, the S3 SDK, nodemailer, file-type) would otherwise
 * stay resident in every API process from its first second (docs/decisions/0008-api-memory.md).
 *
 * The import runs once; a failed import is not cached, so the next call tries again.
 */
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}
