CREATE SCHEMA "search";
--> statement-breakpoint
CREATE TABLE "search"."bounty_prefixes" (
	"prefix" text NOT NULL,
	"rank" real NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"bounty_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "search"."bounty_prefixes" ADD CONSTRAINT "bounty_prefixes_bounty_id_bounties_id_fk" FOREIGN KEY ("bounty_id") REFERENCES "public"."bounties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE FUNCTION "search"."bounty_prefix_rows"("doc" tsvector) RETURNS TABLE("prefix" text, "rank" real) LANGUAGE sql STABLE AS $$
	-- Every prefix of every lexeme, once, with the rank the feed search gives the title for
	-- the one-word query 'prefix':* (the tsquery is built as a quoted lexeme, not parsed again).
	SELECT p.prefix, ts_rank(doc, ('''' || replace(replace(p.prefix, '\', '\\'), '''', '''''') || ''':*')::tsquery)
	FROM (SELECT DISTINCT left(l.lexeme, n) AS prefix
		FROM unnest(doc) AS l, generate_series(1, length(l.lexeme)) AS n) AS p
$$;--> statement-breakpoint
CREATE FUNCTION "search"."bounties_prefixes_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "search"."bounty_prefixes" ("prefix", "rank", "created_at", "bounty_id")
	SELECT p.prefix, p.rank, n.created_at, n.id
	FROM new_bounties AS n CROSS JOIN LATERAL "search"."bounty_prefix_rows"(n.search) AS p;
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "search"."bounties_prefixes_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM "search"."bounty_prefixes" WHERE "bounty_id" = OLD.id;
	INSERT INTO "search"."bounty_prefixes" ("prefix", "rank", "created_at", "bounty_id")
	SELECT p.prefix, p.rank, NEW.created_at, NEW.id FROM "search"."bounty_prefix_rows"(NEW.search) AS p;
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "bounties_prefixes_insert" AFTER INSERT ON "bounties" REFERENCING NEW TABLE AS new_bounties FOR EACH STATEMENT EXECUTE FUNCTION "search"."bounties_prefixes_insert"();--> statement-breakpoint
CREATE TRIGGER "bounties_prefixes_update" AFTER UPDATE OF "title", "created_at" ON "bounties" FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.created_at IS DISTINCT FROM NEW.created_at) EXECUTE FUNCTION "search"."bounties_prefixes_update"();--> statement-breakpoint
-- The bounties there already, before the indexes (one sort each instead of row by row).
INSERT INTO "search"."bounty_prefixes" ("prefix", "rank", "created_at", "bounty_id")
SELECT p.prefix, p.rank, b.created_at, b.id FROM "bounties" AS b CROSS JOIN LATERAL "search"."bounty_prefix_rows"(b.search) AS p;--> statement-breakpoint
CREATE INDEX "bounty_prefixes_feed_idx" ON "search"."bounty_prefixes" USING btree ("prefix","rank" DESC NULLS LAST,"created_at" DESC NULLS LAST,"bounty_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "bounty_prefixes_bounty_idx" ON "search"."bounty_prefixes" USING btree ("bounty_id");
