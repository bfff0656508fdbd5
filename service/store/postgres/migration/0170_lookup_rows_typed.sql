-- The lookup rows in typed columns (lookuprows.go): the animal, its owner
-- and its latest vaccination as columns of their own types, the lists and
-- the designation as JSON. Open makes the table and the function
-- lookup_store(aid), which writes an animal's row, from the store's column
-- lists (and again, rebuilding every row, when they change); the triggers
-- of 0030 call lookup_refresh, which now calls it.
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
