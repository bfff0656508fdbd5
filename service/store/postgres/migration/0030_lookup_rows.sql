-- The lookup rows (lookuprows.go): one row per animal holding every part
-- of its record but its licences, as the JSON text lookup_body(id) makes
-- (a function Open writes from the store's column lists, and replaces,
-- rebuilding every row, when they change). The triggers below keep each
-- row in the transaction of every change to the animal, its owner, its
-- chips, vaccinations, designations, quarantines, impoundments and
-- bites. A bulk load (Import, chipdesk migrate) sets chipdesk.bulk for
-- its transaction and rebuilds the rows of what it loaded at the end.
-- No foreign key: a load would check it row by row; the animals'
-- trigger deletes the row of a deleted animal.
CREATE TABLE lookup_rows (
	animal_id BIGINT PRIMARY KEY,
	body      TEXT NOT NULL
);

-- lookup_refresh rebuilds the row of animal aid. It locks the row
-- before it reads the parts, so that of two transactions changing one
-- animal the second reads what the first committed.
CREATE FUNCTION lookup_refresh(aid BIGINT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF aid IS NULL OR current_setting('chipdesk.bulk', true) = 'on' THEN
		RETURN;
	END IF;
	PERFORM 1 FROM lookup_rows WHERE animal_id = aid FOR UPDATE;
	IF NOT EXISTS (SELECT 1 FROM animals WHERE id = aid) THEN
		DELETE FROM lookup_rows WHERE animal_id = aid;
		RETURN;
	END IF;
	INSERT INTO lookup_rows (animal_id, body) VALUES (aid, lookup_body(aid))
		ON CONFLICT (animal_id) DO UPDATE SET body = excluded.body;
END $$;

CREATE FUNCTION lookup_rows_by_animal_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		PERFORM lookup_refresh(OLD.animal_id);
	END IF;
	IF TG_OP = 'INSERT' THEN
		PERFORM lookup_refresh(NEW.animal_id);
	ELSIF TG_OP = 'UPDATE' AND NEW.animal_id IS DISTINCT FROM OLD.animal_id THEN
		PERFORM lookup_refresh(NEW.animal_id);
	END IF;
	RETURN NULL;
END $$;

CREATE FUNCTION lookup_rows_animal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		DELETE FROM lookup_rows WHERE animal_id = OLD.id;
	ELSE
		PERFORM lookup_refresh(NEW.id);
	END IF;
	RETURN NULL;
END $$;

CREATE FUNCTION lookup_rows_owner() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	aid BIGINT;
BEGIN
	FOR aid IN SELECT id FROM animals WHERE owner_id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END) LOOP
		PERFORM lookup_refresh(aid);
	END LOOP;
	RETURN NULL;
END $$;

CREATE TRIGGER lookup_rows_animals AFTER INSERT OR UPDATE OR DELETE ON animals
	FOR EACH ROW EXECUTE FUNCTION lookup_rows_animal();
CREATE TRIGGER lookup_rows_owners AFTER UPDATE OR DELETE ON owners
	FOR EACH ROW EXECUTE FUNCTION lookup_rows_owner();
CREATE TRIGGER lookup_rows_chips AFTER INSERT OR UPDATE OR DELETE ON chips
	FOR EACH ROW EXECUTE FUNCTION lookup_rows_by_animal_id();
CREATE TRIGGER lookup_rows_vaccinations AFTER INSERT OR UPDATE OR DELETE ON vaccinations
	FOR EACH ROW EXECUTE FUNCTION lookup_rows_by_animal_id();
CREATE TRIGGER lookup_rows_designations AFTER INSERT OR UPDATE OR DELETE ON designations
	FOR EACH ROW EXECUTE FUNCTION lookup_rows_by_animal_id();
CREATE TRIGGER lookup_rows_quarantines AFTER INSERT OR UPDATE OR DELETE ON quarantines
	FOR EACH ROW EXECUTE FUNCTION lookup_rows_by_animal_id();
CREATE TRIGGER lookup_rows_impoundments AFTER INSERT OR UPDATE OR DELETE ON impoundments
	FOR EACH ROW EXECUTE FUNCTION lookup_rows_by_animal_id();
CREATE TRIGGER lookup_rows_bites AFTER INSERT OR UPDATE OR DELETE ON bites
	FOR EACH ROW EXECUTE FUNCTION lookup_rows_by_animal_id();
