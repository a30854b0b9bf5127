CREATE TABLE "hunter_earnings" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"source" text NOT NULL,
	"claim_id" integer,
	"bounty_id" integer,
	"micros" bigint NOT NULL,
	"reversed_micros" bigint DEFAULT 0 NOT NULL,
	"earned_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"user_id" integer DEFAULT 0 NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"txn_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"amount" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"ref_type" text,
	"ref_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"week_of" date,
	"created_by" integer,
	"file_name" text NOT NULL,
	"count" integer NOT NULL,
	"total_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"legal_name" text NOT NULL,
	"routing_number" text NOT NULL,
	"account_type" text NOT NULL,
	"account_last_four" text NOT NULL,
	"status" text DEFAULT 'sent' NOT NULL,
	"return_code" text,
	"returned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"year" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"legal_name" text NOT NULL,
	"street" text NOT NULL,
	"city_state_zip" text NOT NULL,
	"tin_last_four" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vote_earnings_pending" ADD COLUMN "plan_index" integer;--> statement-breakpoint
ALTER TABLE "hunter_earnings" ADD CONSTRAINT "hunter_earnings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_txn_id_ledger_transactions_id_fk" FOREIGN KEY ("txn_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_forms" ADD CONSTRAINT "tax_forms_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hunter_earnings_user_idx" ON "hunter_earnings" USING btree ("user_id","earned_at");--> statement-breakpoint
CREATE INDEX "hunter_earnings_claim_idx" ON "hunter_earnings" USING btree ("claim_id");--> statement-breakpoint
CREATE INDEX "hunter_earnings_unreleased_idx" ON "hunter_earnings" USING btree ("earned_at") WHERE released_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_code_user_idx" ON "ledger_accounts" USING btree ("code","user_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_txn_idx" ON "ledger_entries" USING btree ("txn_id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_ref_idx" ON "ledger_transactions" USING btree ("ref_type","ref_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_batches_week_idx" ON "payout_batches" USING btree ("week_of") WHERE kind = 'scheduled';--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_batch_user_idx" ON "payouts" USING btree ("batch_id","user_id");--> statement-breakpoint
CREATE INDEX "payouts_user_idx" ON "payouts" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_forms_user_year_idx" ON "tax_forms" USING btree ("user_id","year");--> statement-breakpoint
CREATE INDEX "tax_forms_year_idx" ON "tax_forms" USING btree ("year","user_id");--> statement-breakpoint
CREATE FUNCTION "ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: write a reversing transaction instead';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "ledger_entries_no_change" BEFORE UPDATE OR DELETE ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION "ledger_append_only"();--> statement-breakpoint
CREATE TRIGGER "ledger_transactions_no_change" BEFORE UPDATE OR DELETE ON "ledger_transactions" FOR EACH ROW EXECUTE FUNCTION "ledger_append_only"();
