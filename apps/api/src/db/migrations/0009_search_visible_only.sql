-- The search tables hold only bounties that are not hidden, so the feed's walks read their index
-- alone instead of looking up every bounty they pass for its hidden_at (decision 0031). Hiding a
-- bounty deletes its rows, showing it again writes them back, in the same transaction.
CREATE OR REPLACE FUNCTION "search"."bounties_prefixes_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "search"."bounty_prefixes" ("prefix", "rank", "created_at", "bounty_id")
	SELECT p.prefix, p.rank, n.created_at, n.id
	FROM new_bounties AS n CROSS JOIN LATERAL "search"."bounty_prefix_rows"(n.search) AS p
	WHERE n.hidden_at IS NULL;
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "search"."bounties_prefixes_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM "search"."bounty_prefixes" WHERE "bounty_id" = OLD.id;
	IF NEW.hidden_at IS NULL THEN
		INSERT INTO "search"."bounty_prefixes" ("prefix", "rank", "created_at", "bounty_id")
		SELECT p.prefix, p.rank, NEW.created_at, NEW.id FROM "search"."bounty_prefix_rows"(NEW.search) AS p;
	END IF;
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "search"."bounties_prefix_pairs_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "search"."bounty_prefix_pairs" ("prefix_a", "prefix_b", "rank", "created_at", "bounty_id")
	SELECT p.prefix_a, p.prefix_b, p.rank, n.created_at, n.id
	FROM new_bounties AS n CROSS JOIN LATERAL "search"."bounty_prefix_pair_rows"(n.search) AS p
	WHERE n.hidden_at IS NULL;
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "search"."bounties_prefix_pairs_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM "search"."bounty_prefix_pairs" WHERE "bounty_id" = OLD.id;
	IF NEW.hidden_at IS NULL THEN
		INSERT INTO "search"."bounty_prefix_pairs" ("prefix_a", "prefix_b", "rank", "created_at", "bounty_id")
		SELECT p.prefix_a, p.prefix_b, p.rank, NEW.created_at, NEW.id FROM "search"."bounty_prefix_pair_rows"(NEW.search) AS p;
	END IF;
	RETURN NULL;
END;
$$;--> statement-breakpoint
DROP TRIGGER "bounties_prefixes_update" ON "bounties";--> statement-breakpoint
CREATE TRIGGER "bounties_prefixes_update" AFTER UPDATE OF "title", "created_at", "hidden_at" ON "bounties" FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.created_at IS DISTINCT FROM NEW.created_at OR (OLD.hidden_at IS NULL) <> (NEW.hidden_at IS NULL)) EXECUTE FUNCTION "search"."bounties_prefixes_update"();--> statement-breakpoint
DROP TRIGGER "bounties_prefix_pairs_update" ON "bounties";--> statement-breakpoint
CREATE TRIGGER "bounties_prefix_pairs_update" AFTER UPDATE OF "title", "created_at", "hidden_at" ON "bounties" FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.created_at IS DISTINCT FROM NEW.created_at OR (OLD.hidden_at IS NULL) <> (NEW.hidden_at IS NULL)) EXECUTE FUNCTION "search"."bounties_prefix_pairs_update"();--> statement-breakpoint
-- The rows of bounties hidden already.
DELETE FROM "search"."bounty_prefixes" AS t USING "bounties" AS b WHERE b.id = t.bounty_id AND b.hidden_at IS NOT NULL;--> statement-breakpoint
DELETE FROM "search"."bounty_prefix_pairs" AS t USING "bounties" AS b WHERE b.id = t.bounty_id AND b.hidden_at IS NOT NULL;
