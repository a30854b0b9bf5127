DROP INDEX "claims_hunter_idx";--> statement-breakpoint
DROP INDEX "posts_hunter_idx";--> statement-breakpoint
CREATE INDEX "claims_hunter_feed_idx" ON "claims" USING btree ("hunter_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"votes");--> statement-breakpoint
CREATE INDEX "posts_hunter_feed_idx" ON "posts" USING btree ("hunter_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);