CREATE TABLE "search"."bounty_prefix_pairs" (
	"prefix_a" text NOT NULL,
	"prefix_b" text NOT NULL,
	"rank" real NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"bounty_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "search"."bounty_prefix_pairs" ADD CONSTRAINT "bounty_prefix_pairs_bounty_id_bounties_id_fk" FOREIGN KEY ("bounty_id") REFERENCES "public"."bounties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE FUNCTION "search"."bounty_prefix_pair_rows"("doc" tsvector) RETURNS TABLE("prefix_a" text, "prefix_b" text, "rank" real) LANGUAGE sql STABLE AS $$
	-- Every pair of prefixes (3 characters or more, lower-case ASCII letters and digits) of the
	-- lexemes, once, in byte order, neither a prefix of the other, with the rank the feed search
	-- gives the title for the two-word query 'prefix_a':* & 'prefix_b':* (built as quoted
	-- lexemes, not parsed again; such prefixes need no quoting).
	WITH p AS (
		SELECT DISTINCT left(l.lexeme, n) AS prefix
		FROM unnest(doc) AS l, generate_series(3, length(l.lexeme)) AS n
	), a AS (SELECT prefix FROM p WHERE prefix ~ '^[a-z0-9]+$')
	SELECT x.prefix, y.prefix, ts_rank(doc, ('''' || x.prefix || ''':* & ''' || y.prefix || ''':*')::tsquery)
	FROM a AS x JOIN a AS y ON x.prefix COLLATE "C" < y.prefix COLLATE "C" AND NOT starts_with(y.prefix, x.prefix)
$$;--> statement-breakpoint
CREATE FUNCTION "search"."bounties_prefix_pairs_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "search"."bounty_prefix_pairs" ("prefix_a", "prefix_b", "rank", "created_at", "bounty_id")
	SELECT p.prefix_a, p.prefix_b, p.rank, n.created_at, n.id
	FROM new_bounties AS n CROSS JOIN LATERAL "search"."bounty_prefix_pair_rows"(n.search) AS p;
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "search"."bounties_prefix_pairs_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM "search"."bounty_prefix_pairs" WHERE "bounty_id" = OLD.id;
	INSERT INTO "search"."bounty_prefix_pairs" ("prefix_a", "prefix_b", "rank", "created_at", "bounty_id")
	SELECT p.prefix_a, p.prefix_b, p.rank, NEW.created_at, NEW.id FROM "search"."bounty_prefix_pair_rows"(NEW.search) AS p;
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "bounties_prefix_pairs_insert" AFTER INSERT ON "bounties" REFERENCING NEW TABLE AS new_bounties FOR EACH STATEMENT EXECUTE FUNCTION "search"."bounties_prefix_pairs_insert"();--> statement-breakpoint
CREATE TRIGGER "bounties_prefix_pairs_update" AFTER UPDATE OF "title", "created_at" ON "bounties" FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.created_at IS DISTINCT FROM NEW.created_at) EXECUTE FUNCTION "search"."bounties_prefix_pairs_update"();--> statement-breakpoint
-- The bounties there already, before the indexes (one sort each instead of row by row).
INSERT INTO "search"."bounty_prefix_pairs" ("prefix_a", "prefix_b", "rank", "created_at", "bounty_id")
SELECT p.prefix_a, p.prefix_b, p.rank, b.created_at, b.id FROM "bounties" AS b CROSS JOIN LATERAL "search"."bounty_prefix_pair_rows"(b.search) AS p;--> statement-breakpoint
CREATE INDEX "bounty_prefix_pairs_feed_idx" ON "search"."bounty_prefix_pairs" USING btree ("prefix_a","prefix_b","rank" DESC NULLS LAST,"created_at" DESC NULLS LAST,"bounty_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "bounty_prefix_pairs_bounty_idx" ON "search"."bounty_prefix_pairs" USING btree ("bounty_id");
