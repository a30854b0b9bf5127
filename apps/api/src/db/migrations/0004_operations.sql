CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_id" integer,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"before" jsonb,
	"after" jsonb,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity_submissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"id_front_key" text NOT NULL,
	"id_selfie_key" text NOT NULL,
	"age_attested" boolean,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason_code" text,
	"reason_text" text,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"images_deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"reporter_id" integer NOT NULL,
	"target_type" text NOT NULL,
	"target_id" integer NOT NULL,
	"reason" text NOT NULL,
	"text" text,
	"status" text DEFAULT 'open' NOT NULL,
	"resolved_by" integer,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bounties" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "hunters" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "identity_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "identity_submissions" ADD CONSTRAINT "identity_submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "identity_submissions_user_idx" ON "identity_submissions" USING btree ("user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "identity_submissions_pending_idx" ON "identity_submissions" USING btree ("created_at","id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "identity_submissions_purge_idx" ON "identity_submissions" USING btree ("decided_at") WHERE decided_at is not null and images_deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_once_idx" ON "reports" USING btree ("reporter_id","target_type","target_id") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "reports_open_item_idx" ON "reports" USING btree ("target_type","target_id","created_at") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "claims_created_idx" ON "claims" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "votes_created_idx" ON "votes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "votes_user_idx" ON "votes" USING btree ("user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "users_email_prefix_idx" ON "users" USING btree (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_handle_prefix_idx" ON "users" USING btree (lower("handle") text_pattern_ops);--> statement-breakpoint
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'audit_log is append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_no_update" BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();--> statement-breakpoint
INSERT INTO "identity_submissions" ("user_id", "id_front_key", "id_selfie_key", "status", "created_at")
SELECT "id", "id_front_key", "id_selfie_key", "identity_status", "updated_at" FROM "users"
WHERE "identity_status" IN ('pending', 'approved', 'rejected') AND "id_front_key" IS NOT NULL AND "id_selfie_key" IS NOT NULL;
