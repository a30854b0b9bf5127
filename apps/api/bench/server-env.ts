import { API_NODE_FLAGS } from '../../../scripts/api-node-flags.mjs';
import { GLIBC_ENV } from '../../../scripts/glibc-env.mjs';

/** Node's flags benchmark runs start the product with, as `npm start` does (decision 0038). */
export const benchNodeFlags: readonly string[] = API_NODE_FLAGS;

/** The environment benchmark runs give the product (and the floor): as `npm start` runs it, API only. */
export function benchServerEnv(o: {
  port: number;
  databaseUrl: string;
  dataDir: string;
}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    // As `npm start` runs the product (decision 0008).
    ...GLIBC_ENV,
    API_ONLY: '1',
    HOST: '127.0.0.1',
    API_PORT: String(o.port),
    FLOOR_PORT: String(o.port),
    DATABASE_URL: o.databaseUrl,
    DATA_DIR: o.dataDir,
    LOG_LEVEL: 'warn',
    SEED_DEMO: '0',
    RATE_LIMIT_ALLOW: '127.0.0.1,::1,::ffff:127.0.0.1',
  };
}

/** DATABASE_URL for the tools that read a database `npm run bench:data` filled; else exits. */
export function filledDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres')) {
    console.error('Set DATABASE_URL to a PostgreSQL database filled by npm run bench:data.');
    process.exit(2);
  }
  return url;
}

/** Waits until `${base}/health` answers 200 (polled every 200 ms), or throws after `tries`. */
export async function waitHealthy(base: string, tries = 300): Promise<void> {
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (i >= tries) throw new Error('the product did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}
