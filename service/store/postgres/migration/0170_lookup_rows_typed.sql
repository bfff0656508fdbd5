-- The lookup rows in typed columns (lookuprows.go): the animal, its owner
-- and its latest vaccination as columns of their own types, the lists and
-- the designation as JSON. Open makes the table and the function
-- lookup_store(aid), which writes an animal's row, from the store's column
-- lists (and again, rebuilding every row, when they change); the triggers
-- of 0030 (and those below) call lookup_refresh, which now calls it.
DROP FUNCTION IF EXISTS lookup_body(BIGINT);

CREATE OR REPLACE FUNCTION lookup_refresh(aid BIGINT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF aid IS NULL OR current_setting('chipdesk.bulk', true) = 'on' THEN
		RETURN;
	END IF;
	PERFORM 1 FROM lookup_rows WHERE animal_id = aid FOR UPDATE;
	IF NOT EXISTS (SELECT 1 FROM animals WHERE id = aid) THEN
		DELETE FROM lookup_rows WHERE animal_id = aid;
		RETURN;
	END IF;
	PERFORM lookup_store(aid);
END $$;

-- The permits and open agreements of an animal are parts of its row too
-- (they were read beside it: two subqueries that cost every lookup a
-- third of PostgreSQL's time, for parts nearly every animal lacks).
CREATE TRIGGER lookup_rows_permits AFTER INSERT OR UPDATE OR DELETE ON permits
	FOR EACH ROW WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION lookup_rows_by_animal_id();
CREATE TRIGGER lookup_rows_adoption_agreements AFTER INSERT OR UPDATE OR DELETE ON adoption_agreements
	FOR EACH ROW WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION lookup_rows_by_animal_id();
