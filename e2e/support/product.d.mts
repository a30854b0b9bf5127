// Types of product.mjs (shared by run-e2e.mjs and bench/web-bench.ts).
export interface RunDatabase {
  url: string;
  /** false: PostgreSQL did not answer and `url` is PGlite in the data dir. */
  postgres: boolean;
  drop(): Promise<void>;
}

export function createRunDatabase(options: {
  adminUrl: string;
  prefix: string;
  dataDir: string;
  warn?: (message: string) => void;
}): Promise<RunDatabase>;

export function productEnv(options: {
  dataDir: string;
  databaseUrl: string;
  apiPort: number;
  webPort: number;
  /** The port browsers and specs call (a balancer in front of API_PORT); API_PORT otherwise. */
  publicApiPort?: number;
}): { apiUrl: string; webUrl: string; env: NodeJS.ProcessEnv };

export interface RunningProduct {
  logFile: string;
  log(): string;
  waitUntilUp(): Promise<boolean>;
  stop(): Promise<void>;
}

export function startProduct(options: {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  /** Up when this answers (an API-only instance); default: API_URL's /health and the web page. */
  healthUrl?: string;
}): RunningProduct;
