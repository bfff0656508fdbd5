-- The change sequence the handhelds' incremental pull reads
-- (service.ChangeFeed): one row per animal whose offline record may have
-- changed, with the id of the transaction that last changed it
-- (txid_current(), 64 bits with its epoch: never reused). Statement
-- triggers write it in the change's own transaction. A pull's cursor is
-- the snapshot of the transactions when it starts
-- (txid_current_snapshot()): the next pull asks for the changes that
-- snapshot did not see (txid_visible_in_snapshot), so it misses nothing
-- and repeats nothing, however the transactions' commits interleave. A deleted animal keeps its row, so a
-- pull tells the handheld to drop it. Derived data, this store's own.
CREATE TABLE sync_changes (
	animal_id BIGINT PRIMARY KEY,
	xid       BIGINT NOT NULL
);
CREATE INDEX sync_changes_xid ON sync_changes (xid);

CREATE FUNCTION sync_mark(ids BIGINT[]) RETURNS void LANGUAGE sql AS $$
	INSERT INTO sync_changes (animal_id, xid)
		SELECT DISTINCT u, txid_current() FROM unnest(ids) AS u WHERE u IS NOT NULL
		ON CONFLICT (animal_id) DO UPDATE SET xid = excluded.xid;
$$;

-- sync_by_animal_id marks the animals named by a child table's rows.
CREATE FUNCTION sync_by_animal_id_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM sync_mark(ARRAY(SELECT animal_id FROM new_rows));
	RETURN NULL;
END $$;
CREATE FUNCTION sync_by_animal_id_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM sync_mark(ARRAY(SELECT animal_id FROM new_rows UNION SELECT animal_id FROM old_rows));
	RETURN NULL;
END $$;
CREATE FUNCTION sync_by_animal_id_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM sync_mark(ARRAY(SELECT animal_id FROM old_rows));
	RETURN NULL;
END $$;

CREATE FUNCTION sync_animals_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM sync_mark(ARRAY(SELECT id FROM new_rows));
	RETURN NULL;
END $$;
CREATE FUNCTION sync_animals_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM sync_mark(ARRAY(SELECT id FROM new_rows UNION SELECT id FROM old_rows));
	RETURN NULL;
END $$;
CREATE FUNCTION sync_animals_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM sync_mark(ARRAY(SELECT id FROM old_rows));
	RETURN NULL;
END $$;

CREATE FUNCTION sync_owners_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM sync_mark(ARRAY(SELECT a.id FROM animals a WHERE a.owner_id IN (SELECT id FROM new_rows UNION SELECT id FROM old_rows)));
	RETURN NULL;
END $$;
CREATE FUNCTION sync_owners_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM sync_mark(ARRAY(SELECT a.id FROM animals a WHERE a.owner_id IN (SELECT id FROM old_rows)));
	RETURN NULL;
END $$;

CREATE TRIGGER animals_sync_ins AFTER INSERT ON animals REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_animals_ins();
CREATE TRIGGER animals_sync_upd AFTER UPDATE ON animals REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_animals_upd();
CREATE TRIGGER animals_sync_del AFTER DELETE ON animals REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_animals_del();
CREATE TRIGGER owners_sync_upd AFTER UPDATE ON owners REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_owners_upd();
CREATE TRIGGER owners_sync_del AFTER DELETE ON owners REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_owners_del();
CREATE TRIGGER chips_sync_ins AFTER INSERT ON chips REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_by_animal_id_ins();
CREATE TRIGGER chips_sync_upd AFTER UPDATE ON chips REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_by_animal_id_upd();
CREATE TRIGGER chips_sync_del AFTER DELETE ON chips REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_by_animal_id_del();
CREATE TRIGGER licences_sync_ins AFTER INSERT ON licences REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_by_animal_id_ins();
CREATE TRIGGER licences_sync_upd AFTER UPDATE ON licences REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_by_animal_id_upd();
CREATE TRIGGER licences_sync_del AFTER DELETE ON licences REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_by_animal_id_del();
CREATE TRIGGER vaccinations_sync_ins AFTER INSERT ON vaccinations REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_by_animal_id_ins();
CREATE TRIGGER vaccinations_sync_upd AFTER UPDATE ON vaccinations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_by_animal_id_upd();
CREATE TRIGGER vaccinations_sync_del AFTER DELETE ON vaccinations REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_by_animal_id_del();
CREATE TRIGGER designations_sync_ins AFTER INSERT ON designations REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_by_animal_id_ins();
CREATE TRIGGER designations_sync_upd AFTER UPDATE ON designations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_by_animal_id_upd();
CREATE TRIGGER designations_sync_del AFTER DELETE ON designations REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_by_animal_id_del();
CREATE TRIGGER quarantines_sync_ins AFTER INSERT ON quarantines REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_by_animal_id_ins();
CREATE TRIGGER quarantines_sync_upd AFTER UPDATE ON quarantines REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_by_animal_id_upd();
CREATE TRIGGER quarantines_sync_del AFTER DELETE ON quarantines REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION sync_by_animal_id_del();

INSERT INTO sync_changes (animal_id, xid) SELECT id, txid_current() FROM animals;
