/**
 * The composition root: every adapter and service of one running API is built here, once, and
 * handed to whoever needs it. server.ts builds it with the production parts; tests, the seed
 * and the benchmarks build the same root with other parts (a manual clock, an in-memory job
 * queue, a bucket of their own). Nothing else in src/ constructs a service or an adapter.
 *
 * Order matters only in one direction: adapters first, then services, each given what it uses;
 * a service that needs another module's service takes it as a constructor argument.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceContext } from './context';
import type { DatabaseHandle } from './db/client';
import type { Config } from './env';
import type { JobDefinition, JobQueue } from './jobs/types';
import { systemClock, type Clock } from './lib/clock';
import { loadFieldCipher, type FieldCipher } from './lib/crypto';
import { MemoryRateStore, RateLimiter, RedisRateStore } from './lib/rate-limiter';
import { createMailer, type Mailer } from './mail/mailer';
import { AuditService } from './modules/admin/audit.service';
import { DashboardService } from './modules/admin/dashboard.service';
import { AdminService } from './modules/admin/admin.service';
import { AdminUsersService } from './modules/admin/admin-users.service';
import { accountJobs } from './modules/account/account.jobs';
import { AccountService } from './modules/account/account.service';
import { AuthService } from './modules/auth/auth.service';
import { billingJobs } from './modules/billing/billing.jobs';
import { BillingService } from './modules/billing/billing.service';
import { RefundService } from './modules/billing/refund.service';
import { RenewalService } from './modules/billing/renewal.service';
import { bountiesJobs } from './modules/bounties/bounties.jobs';
import { BountiesService, type BountyPage } from './modules/bounties/bounties.service';
import { FeedCache } from './modules/bounties/feed-cache';
import { ItemStore } from './modules/bounties/item-store';
import { identityJobs } from './modules/identity/identity.jobs';
import { IdentityService } from './modules/identity/identity.service';
import { mediaJobs } from './modules/media/media.jobs';
import { VideoTools } from './modules/media/media.processor';
import { MediaService } from './modules/media/media.service';
import { MemoryBus, createEventBus, type EventBus } from './modules/live/live.bus';
import { liveJobs } from './modules/live/live.jobs';
import { eventsByIds } from './modules/live/live.repository';
import { LiveService } from './modules/live/live.service';
import { messagesJobs } from './modules/messages/messages.jobs';
import { MessagesService } from './modules/messages/messages.service';
import { NotificationsService } from './modules/notifications/notifications.service';
import { ModerationService } from './modules/moderation/moderation.service';
import { DiskPayoutProvider, type PayoutProvider } from './modules/payouts/payout-provider';
import { payoutsJobs } from './modules/payouts/payouts.jobs';
import { PayoutsService } from './modules/payouts/payouts.service';
import { ProfilesService } from './modules/profiles/profiles.service';
import { UsersService } from './modules/users/users.service';
import type { PaymentGateway } from './payments/gateway';
import { SandboxGateway } from './payments/sandbox-gateway';
import { createStorage } from './storage/create-storage';
import type { MediaStorage } from './storage/storage';

/** What the root is built from. Unset optional parts get the configured production default. */
export interface RootParts {
  config: Config;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  /**
   * Required on purpose: the server passes its durable queue, the seed and tests an in-memory
   * one. A root never silently falls back to a queue that would drop jobs.
   */
  jobs: JobQueue;
  clock?: Clock;
  mailer?: Mailer;
  storage?: MediaStorage;
  gateway?: PaymentGateway;
  rateLimiter?: RateLimiter;
  cipher?: FieldCipher;
  payoutProvider?: PayoutProvider;
  /** Wakes the other API instances (createEventBusFor); in process when absent. */
  bus?: EventBus;
}

export interface Root {
  ctx: ServiceContext;
  config: Config;
  database: DatabaseHandle;
  storage: MediaStorage;
  gateway: PaymentGateway;
  rateLimiter: RateLimiter;
  feedCache: FeedCache;
  /** Bounties as searches show them: as JSON (decision 0024), deflated behind (decision 0030). */
  itemCache: FeedCache<Buffer, number>;
  itemStore: ItemStore;
  services: Services;
  /** Every background job of every feature, bound to this root's services. */
  jobDefinitions: JobDefinition[];
}

export type Services = ReturnType<typeof createServices>;

function createServices(
  ctx: ServiceContext,
  parts: {
    storage: MediaStorage;
    gateway: PaymentGateway;
    feedCache: FeedCache;
    /** Bounty pages as the public sees them (decisions 0016, 0021). */
    pageCache: FeedCache<BountyPage>;
    /** Claim pages as the public sees them (decision 0021). */
    claimCache: FeedCache<BountyPage>;
    /** Bounties as searches show them (decision 0024), and deflated behind it (decision 0030). */
    itemCache: FeedCache<Buffer, number>;
    itemStore: ItemStore;
    cipher: FieldCipher;
    payoutProvider: PayoutProvider;
    bus: EventBus;
  },
) {
  const tmpDir = path.join(ctx.config.dataDir, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  const media = new MediaService(ctx, {
    storage: parts.storage,
    video: new VideoTools(ctx.config.FFMPEG_PATH, ctx.config.FFPROBE_PATH),
    tmpDir,
  });
  const audit = new AuditService(ctx);
  const live = new LiveService(ctx, parts.bus);
  const notifications = new NotificationsService(
    ctx,
    live,
    parts.cipher.deriveKey('notification-unsubscribe'),
  );
  const messages = new MessagesService(ctx, live, notifications);
  const auth = new AuthService(ctx, audit, live);
  const users = new UsersService(ctx, live);
  const account = new AccountService(ctx, parts.cipher, users, auth);
  const billing = new BillingService(ctx, parts.gateway, users);
  const renewal = new RenewalService(ctx, parts.gateway, users);
  const bounties = new BountiesService(
    ctx,
    parts.feedCache,
    {
      bounties: parts.pageCache,
      claims: parts.claimCache,
      items: parts.itemCache,
      itemStore: parts.itemStore,
    },
    live,
    notifications,
  );
  // Bounty pages and the feed show users' cards: they are built anew when one changes.
  users.onCardChanged(() => bounties.feedChanged());
  // Votes, bounty holds and refunds move silver: the voter's or poster's answer is read anew.
  bounties.onUsersChanged((ids) => users.changed(ids));
  const profiles = new ProfilesService(ctx, users);
  const admin = new AdminService(ctx, parts.cipher, users, auth, account, audit);
  const moderation = new ModerationService(ctx, {
    audit,
    bounties,
    profiles,
    users,
    messages,
  });
  const dashboard = new DashboardService(ctx);
  const identity = new IdentityService(
    ctx,
    users,
    media,
    audit,
    parts.cipher.deriveKey('identity-media-url'),
    notifications,
  );
  const adminUsers = new AdminUsersService(ctx, users, auth, account, audit);
  const payouts = new PayoutsService(ctx, {
    account,
    audit,
    provider: parts.payoutProvider,
    notifications,
  });
  const refunds = new RefundService(ctx, parts.gateway, { bounties, audit, users });
  return {
    media,
    audit,
    live,
    notifications,
    messages,
    auth,
    users,
    account,
    billing,
    renewal,
    bounties,
    profiles,
    admin,
    moderation,
    dashboard,
    identity,
    adminUsers,
    payouts,
    refunds,
  };
}

/**
 * Bounties searches keep as JSON per instance, in front of the deflated store. 2,048 (8,192
 * until decision 0032): under new two-word terms at 1,000,000 claims the larger tier held ~30 MB
 * more and took the API past 250 MB of RSS, for inflates that cost ~6 µs a bounty.
 */
export const ITEM_JSON_MAX = 2048;

export function createRoot(parts: RootParts): Root {
  const { config, database, log } = parts;
  // The type says so too; this stops a plain-JS caller that forgot it.
  if (!parts.jobs) throw new Error('createRoot needs a job queue (server: PgBossJobQueue)');
  const clock = parts.clock ?? systemClock;
  const ctx: ServiceContext = {
    db: database.db,
    dbAhead: database.ahead,
    dbKind: database.kind,
    clock,
    config,
    log,
    mailer: parts.mailer ?? createMailer(config, log),
    jobs: parts.jobs,
  };
  const storage = parts.storage ?? createStorage(config);
  const gateway = parts.gateway ?? new SandboxGateway(clock);
  const feedCache = new FeedCache(config.FEED_CACHE_MS);
  // Up to 4,096 bounty pages (2–4 KB, at most ~90 KB for 5 rounds × 50 claims) and 16,384
  // claim pages (under 1 KB each) per instance; past their time, answered while rebuilt.
  const pageCache = new FeedCache<BountyPage>(config.PAGE_CACHE_MS, 4096, undefined, true);
  const claimCache = new FeedCache<BountyPage>(config.PAGE_CACHE_MS, 16_384, undefined, true);
  // Every bounty a search built, deflated into one ring (~900 bytes each; decisions 0030, 0034).
  // Off with the pages.
  const itemStore = new ItemStore(
    config.PAGE_CACHE_MS > 0 ? config.ITEM_STORE_MB * 1024 * 1024 : 0,
    config.ITEM_STORE_MS,
  );
  // In front of it, up to ITEM_JSON_MAX of them as UTF-8 JSON (~2–4 KB with ten claims;
  // decisions 0024, 0029, 0032), kept as long as the store keeps them: both are dropped on every
  // change, and their time only bounds a lost message's lag, which the store's time bounds
  // anyway. (Kept for PAGE_CACHE_MS, ~1,000 unchanged bounties a second were built again in the
  // background at 1M.)
  const itemCache = new FeedCache<Buffer, number>(
    itemStore.enabled ? config.ITEM_STORE_MS : config.PAGE_CACHE_MS,
    ITEM_JSON_MAX,
    undefined,
    true,
  );
  const cipher = parts.cipher ?? loadFieldCipher(config, (m) => log.warn(m));
  const rateLimiter =
    parts.rateLimiter ?? new RateLimiter(new MemoryRateStore(clock), config.rateLimitAllow);
  const payoutProvider = parts.payoutProvider ?? new DiskPayoutProvider(config.dataDir);
  const bus = parts.bus ?? new MemoryBus();
  const services = createServices(ctx, {
    storage,
    gateway,
    feedCache,
    pageCache,
    claimCache,
    itemCache,
    itemStore,
    cipher,
    payoutProvider,
    bus,
  });
  const jobDefinitions = [
    ...mediaJobs(services.media),
    ...accountJobs(services.account, log),
    ...identityJobs(services.identity, log),
    ...billingJobs(services.renewal),
    ...bountiesJobs(services.bounties),
    ...payoutsJobs(services.payouts, config.PAYOUT_SCHEDULE),
    ...messagesJobs(services.messages),
    ...liveJobs(services.live),
  ];
  return {
    ctx,
    config,
    database,
    storage,
    gateway,
    rateLimiter,
    feedCache,
    itemCache,
    itemStore,
    services,
    jobDefinitions,
  };
}

/**
 * Rate limits shared by every API instance through Redis when REDIS_URL is set, else kept in
 * this process. ioredis is loaded only by processes configured for Redis.
 */
export async function createRateLimiter(
  config: Config,
  log: FastifyBaseLogger,
  clock: Clock = systemClock,
): Promise<RateLimiter> {
  if (!config.REDIS_URL) {
    return new RateLimiter(new MemoryRateStore(clock), config.rateLimitAllow);
  }
  const { Redis } = await import('ioredis');
  // While Redis is unreachable a command fails at once (no offline queue) or within a second;
  // the limiter then applies each rule's outage choice (env.ts RateRule.onOutage).
  const redis = new Redis(config.REDIS_URL, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    commandTimeout: 1000,
    lazyConnect: false,
  });
  let down = false;
  redis.on('error', (err) => {
    if (!down) log.warn({ err: { message: err.message } }, 'redis error');
    down = true;
  });
  redis.on('ready', () => {
    if (down) log.info('redis: connected again; rate limits are shared again');
    down = false;
  });
  return new RateLimiter(new RedisRateStore(redis), config.rateLimitAllow, {
    fallback: new MemoryRateStore(clock),
    warn: (message) => log.warn(message),
  });
}

/**
 * The live events bus for this deployment (LIVE_BUS): Redis pub/sub with REDIS_URL, PostgreSQL
 * LISTEN/NOTIFY on PostgreSQL, in process on the embedded database.
 */
export function createEventBusFor(
  config: Config,
  database: DatabaseHandle,
  log: FastifyBaseLogger,
): Promise<EventBus> {
  return createEventBus(
    {
      choice: config.LIVE_BUS,
      redisUrl: config.REDIS_URL,
      pool: database.pool,
      databaseUrl: config.databaseUrl,
      load: (ids) => eventsByIds(database.db, ids),
    },
    log,
  );
}
