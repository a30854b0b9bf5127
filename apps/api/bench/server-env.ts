/** The environment benchmark runs give the product (and the floor): as `npm start` runs it, API only. */
export function benchServerEnv(o: {
  port: number;
  databaseUrl: string;
  dataDir: string;
}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    // As scripts/start.mjs runs the product.
    MALLOC_ARENA_MAX: '2',
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
