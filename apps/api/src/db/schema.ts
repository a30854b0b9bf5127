/** Every table, for Drizzle's relational queries and drizzle-kit. */
export * from './schema/users';
export * from './schema/sessions';
export * from './schema/hunters';
export * from './schema/media';
export * from './schema/bounties';
export * from './schema/billing';
export * from './schema/admin';
export * from './schema/identity';
export * from './schema/moderation';
export * from './schema/payouts';
export * from './schema/live';
export * from './schema/messages';
export * from './schema/notifications';
