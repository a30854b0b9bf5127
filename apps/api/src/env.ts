/** Configuration of CONTRACT.md, read once and validated; a bad value stops start-up naming the variable. */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine(
      (v) => v === undefined || protocols.some((p) => v.startsWith(p)),
      `must start with ${protocols.join(' or ')}`,
    );

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  API_PORT: port.default(5052),
  WEB_PORT: port.default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalUrl([
    'postgres://',
    'postgresql://',
    'memory://',
    'pglite://',
    'embedded-postgres://',
  ]),
  /**
   * Without DATABASE_URL: `postgres` runs a PostgreSQL server of its own with its data in
   * DATA_DIR/postgres (decision 0018); `pglite` the in-process PGlite in DATA_DIR/db. Unset:
   * postgres, except on a DATA_DIR an earlier version filled with PGlite (kept on it).
   */
  EMBEDDED_DB: z.enum(['postgres', 'pglite']).optional(),
  SMTP_URL: optionalUrl(['smtp://', 'smtps://']),
  MAIL_FROM: z.string().default('BountyHunt <no-reply@localhost>'),
  PUBLIC_WEB_URL: z.url().default('http://localhost:3000'),
  API_URL: optionalUrl(['http://', 'https://']),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: optionalUrl(['http://', 'https://']),
  S3_REGION: z.string().default('us-east-1'),
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  MEDIA_URL: optionalUrl(['http://', 'https://', '/']),
  REDIS_URL: optionalUrl(['redis://', 'rediss://']),
  RATE_LIMIT_ALLOW: z.string().default(''),
  /**
   * Behind a reverse proxy (deploy/nginx): which peers may name the client in
   * X-Forwarded-For. Empty or "false": none (the socket address is the client); "true": any;
   * a number: that many proxy hops; else comma-separated IPs/CIDRs of the proxies.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('')
    .refine(
      (v) =>
        v === '' ||
        /^(true|false|\d+)$/.test(v) ||
        v
          .split(',')
          .map((a) => a.trim())
          .every((a) => /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(a) && a.length > 0),
      'must be empty, true, false, a hop count, or comma-separated IPs/CIDRs',
    ),
  ENCRYPTION_KEY: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || v === '' || Buffer.from(v, 'base64').length === 32,
      'must be 32 bytes, base64-encoded',
    ),
  /** Earlier ENCRYPTION_KEY values (comma-separated) still accepted for decryption while rows are re-encrypted. */
  ENCRYPTION_KEY_PREVIOUS: z
    .string()
    .default('')
    .refine(
      (v) =>
        v
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean)
          .every((k) => Buffer.from(k, 'base64').length === 32),
      'must be a comma-separated list of 32-byte base64 keys',
    ),
  SEED_DEMO: z.enum(['0', '1', '']).optional(),
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * 1: every log line written while a request or job runs names it (`reqId`, `job`), also the
   * lines services write with the root logger. Off by default: it carries the request through
   * AsyncLocalStorage, whose promise hooks cost Node 20 ~10 % of the API's CPU a search (decision
   * 0040). Fastify's own lines for a request name it either way.
   */
  LOG_CONTEXT: z.enum(['0', '1']).default('0'),
  CORS_ORIGINS: z.string().default(''),
  MAX_IMAGE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  MAX_VIDEO_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(500 * 1024 * 1024),
  /** Images with more pixels than this are refused (decompression bombs). */
  MAX_IMAGE_PIXELS: z.coerce.number().int().positive().default(100_000_000),
  /**
   * A signed-in request's session is looked up at most once per this many ms per instance
   * (0: every request). Sign-outs and other session changes are forgotten at once, on every
   * instance (docs/decisions/0015-session-cache.md).
   */
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
  /**
   * The signed-in user's own answer (GET /user) is read at most once per this many ms per
   * instance (0: every request). Every write to the user is forgotten at once here and within
   * a few ms on every instance (docs/decisions/0022-user-answer-cache.md).
   */
  USER_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
  /** Feed pages are built at most once per this many ms per instance (0: no cache). */
  FEED_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /**
   * Bounty and claim pages are built at most once per this many ms per instance (0: no cache);
   * every change they show drops them at once on every instance (decision 0021), so this bounds
   * only how long a page may lag when a message between instances is lost unnoticed.
   */
  PAGE_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /**
   * Bounties as searches show them are also kept deflated, in one ring of this many MB per
   * instance (0: off; decisions 0030, 0034), so a new search term rarely builds bounties again.
   */
  ITEM_STORE_MB: z.coerce.number().int().min(0).max(2048).default(32),
  /**
   * How long such a kept bounty is answered: every change it shows drops it at once on every
   * instance, so, like PAGE_CACHE_MS, this bounds only a lost message between instances.
   */
  ITEM_STORE_MS: z.coerce.number().int().min(0).max(3_600_000).default(300_000),
  /**
   * Stored media objects that no media row names are deleted once older than this (kill -9
   * between writing files and recording the row); videos still processing after it get their
   * job queued again. Longer than any upload takes.
   */
  MEDIA_SWEEP_GRACE_SECONDS: z.coerce.number().int().min(1).default(3600),
  /** A running job whose instance stopped sending heartbeats this long ago is retried elsewhere. */
  JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(3600).default(30),
  /** How often pg-boss looks for such jobs (and expired ones). */
  JOB_SUPERVISE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  FFMPEG_PATH: z.string().default('ffmpeg'),
  FFPROBE_PATH: z.string().default('ffprobe'),
  /** Rate limits (CONTRACT.md "Rate limits"), each "count/seconds". */
  RL_LOGIN_EMAIL: z.string().default('10/900'),
  RL_LOGIN_IP: z.string().default('100/300'),
  RL_REGISTER_IP: z.string().default('20/3600'),
  RL_RESET_EMAIL: z.string().default('5/3600'),
  RL_RESET_IP: z.string().default('20/3600'),
  RL_UPLOAD_USER: z.string().default('60/3600'),
  RL_VOTE_USER: z.string().default('120/60'),
  RL_REPORT_USER: z.string().default('30/3600'),
  RL_MESSAGE_USER: z.string().default('20/60'),
  /** Live event streams (issue 19): a comment line this often keeps proxies from closing them. */
  LIVE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(120_000).default(25_000),
  /** Which bus wakes the other API instances: auto = Redis with REDIS_URL, else PostgreSQL
   * LISTEN/NOTIFY on PostgreSQL, else in process. */
  LIVE_BUS: z.enum(['auto', 'memory', 'postgres', 'redis']).default('auto'),
  /** Payouts (issue 18): the hunter's share of what a vote or prize is worth, 0 to 1. */
  CREATOR_SHARE: z.coerce.number().min(0).max(1).default(0.8),
  /** A hunter is paid when the available balance is at least this many cents. */
  PAYOUT_MINIMUM_CENTS: z.coerce.number().int().min(1).default(2000),
  /** The weekly payout run (cron, UTC). */
  PAYOUT_SCHEDULE: z.string().default('0 9 * * 1'),
  /** Earnings stay pending this many days (moderation and refunds) before they can be paid. */
  EARNINGS_HOLD_DAYS: z.coerce.number().int().min(0).max(90).default(7),
  /** The originating bank (ODFI) routing number and the company in the NACHA file. */
  PAYOUT_ODFI_ROUTING: z
    .string()
    .regex(/^\d{9}$/, 'must be 9 digits')
    .default('091000019'),
  PAYOUT_ODFI_NAME: z.string().default('WELLS FARGO BANK'),
  PAYOUT_COMPANY_NAME: z.string().default('BOUNTYHUNT'),
  PAYOUT_COMPANY_ID: z
    .string()
    .regex(/^\d{10}$/, 'must be 10 digits')
    .default('1123456789'),
  /** The payer block of Form 1099-NEC. */
  PAYER_NAME: z.string().default('BountyHunt, Inc.'),
  PAYER_STREET: z.string().default('548 Market St, Suite 100'),
  PAYER_CITY_STATE_ZIP: z.string().default('San Francisco, CA 94104'),
  PAYER_PHONE: z.string().default('(415) 555-0100'),
  PAYER_TIN: z
    .string()
    .regex(/^\d{2}-\d{7}$/, 'must look like 12-3456789')
    .default('12-3456789'),
});

export type RawEnv = z.infer<typeof envSchema>;

export interface RateRule {
  limit: number;
  windowMs: number;
  /**
   * While the shared counter (Redis) cannot be reached: `open` counts in this process instead
   * (the limit holds per instance; the default), `closed` refuses with 503 and Retry-After.
   * docs/decisions/0013-redis-outage.md says which limit does which, and why.
   */
  onOutage?: 'open' | 'closed';
}

export interface Config extends RawEnv {
  dataDir: string;
  databaseUrl: string;
  corsOrigins: string[];
  rateLimits: Record<
    | 'loginEmail'
    | 'loginIp'
    | 'registerIp'
    | 'resetEmail'
    | 'resetIp'
    | 'uploadUser'
    | 'voteUser'
    | 'reportUser'
    | 'messageUser',
    RateRule
  >;
  rateLimitAllow: string[];
  /** Fastify's trustProxy, from TRUST_PROXY. */
  trustProxy: boolean | number | string[];
}

export class ConfigError extends Error {}

/** Limits that refuse while Redis is down (the rest count per instance meanwhile). */
const CLOSED_ON_OUTAGE = new Set(['RL_RESET_EMAIL', 'RL_RESET_IP']);

function parseRule(name: string, value: string): RateRule {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  if (!m)
    throw new ConfigError(
      `Invalid configuration: ${name} must look like "count/seconds", got "${value}"`,
    );
  return {
    limit: Number(m[1]),
    windowMs: Number(m[2]) * 1000,
    onOutage: CLOSED_ON_OUTAGE.has(name) ? 'closed' : 'open',
  };
}

function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
}

/** EMBEDDED_DB, or what an existing DATA_DIR holds: PGlite data (DATA_DIR/db) stays on PGlite. */
function embeddedDb(setting: 'postgres' | 'pglite' | undefined, dataDir: string) {
  if (setting) return setting;
  const pglite = fs.existsSync(path.join(dataDir, 'db', 'PG_VERSION'));
  return pglite && !fs.existsSync(path.join(dataDir, 'postgres')) ? 'pglite' : 'postgres';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const raw = parsed.data;
  const dataDir = path.resolve(raw.DATA_DIR);
  const databaseUrl =
    raw.DATABASE_URL ??
    (embeddedDb(raw.EMBEDDED_DB, dataDir) === 'pglite'
      ? `pglite://${path.join(dataDir, 'db')}`
      : `embedded-postgres://${path.join(dataDir, 'postgres')}`);
  const corsOrigins = raw.CORS_ORIGINS.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    ...raw,
    dataDir,
    databaseUrl,
    corsOrigins,
    rateLimits: {
      loginEmail: parseRule('RL_LOGIN_EMAIL', raw.RL_LOGIN_EMAIL),
      loginIp: parseRule('RL_LOGIN_IP', raw.RL_LOGIN_IP),
      registerIp: parseRule('RL_REGISTER_IP', raw.RL_REGISTER_IP),
      resetEmail: parseRule('RL_RESET_EMAIL', raw.RL_RESET_EMAIL),
      resetIp: parseRule('RL_RESET_IP', raw.RL_RESET_IP),
      uploadUser: parseRule('RL_UPLOAD_USER', raw.RL_UPLOAD_USER),
      voteUser: parseRule('RL_VOTE_USER', raw.RL_VOTE_USER),
      reportUser: parseRule('RL_REPORT_USER', raw.RL_REPORT_USER),
      messageUser: parseRule('RL_MESSAGE_USER', raw.RL_MESSAGE_USER),
    },
    trustProxy: parseTrustProxy(raw.TRUST_PROXY),
    rateLimitAllow: raw.RATE_LIMIT_ALLOW.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
}

/** For the command-line entry points: a bad variable ends the process with its message. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
