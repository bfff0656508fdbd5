-- The change sequence the handhelds' incremental pull reads
-- (service.ChangeFeed): one row per animal whose offline record may have
-- changed, numbered in commit order. Triggers write it in the change's
-- own transaction; a change to an animal already listed takes a new,
-- higher number (AUTOINCREMENT: a number is never used twice, even after
-- the highest row is replaced). A deleted animal keeps its row, so a pull
-- tells the handheld to drop it. Derived data, this store's own: a copy
-- into another store starts its own sequence, and a handheld's cursor of
-- this one is refused there (it pulls in full).
CREATE TABLE sync_changes (
	seq       INTEGER PRIMARY KEY AUTOINCREMENT,
	animal_id INTEGER NOT NULL UNIQUE
);

CREATE TRIGGER animals_sync_insert AFTER INSERT ON animals BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (NEW.id);
END;
CREATE TRIGGER animals_sync_update AFTER UPDATE ON animals BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (OLD.id);
	INSERT OR REPLACE INTO sync_changes (animal_id) SELECT NEW.id WHERE NEW.id <> OLD.id;
END;
CREATE TRIGGER animals_sync_delete AFTER DELETE ON animals BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (OLD.id);
END;
CREATE TRIGGER owners_sync_update AFTER UPDATE ON owners BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) SELECT id FROM animals WHERE owner_id IN (OLD.id, NEW.id);
END;
CREATE TRIGGER owners_sync_delete AFTER DELETE ON owners BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) SELECT id FROM animals WHERE owner_id = OLD.id;
END;
CREATE TRIGGER chips_sync_insert AFTER INSERT ON chips BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (NEW.animal_id);
END;
CREATE TRIGGER chips_sync_update AFTER UPDATE ON chips BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (OLD.animal_id);
	INSERT OR REPLACE INTO sync_changes (animal_id) SELECT NEW.animal_id WHERE NEW.animal_id <> OLD.animal_id;
END;
CREATE TRIGGER chips_sync_delete AFTER DELETE ON chips BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (OLD.animal_id);
END;
CREATE TRIGGER licences_sync_insert AFTER INSERT ON licences BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (NEW.animal_id);
END;
CREATE TRIGGER licences_sync_update AFTER UPDATE ON licences BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (OLD.animal_id);
	INSERT OR REPLACE INTO sync_changes (animal_id) SELECT NEW.animal_id WHERE NEW.animal_id <> OLD.animal_id;
END;
CREATE TRIGGER licences_sync_delete AFTER DELETE ON licences BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (OLD.animal_id);
END;
CREATE TRIGGER vaccinations_sync_insert AFTER INSERT ON vaccinations BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (NEW.animal_id);
END;
CREATE TRIGGER vaccinations_sync_update AFTER UPDATE ON vaccinations BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (OLD.animal_id);
	INSERT OR REPLACE INTO sync_changes (animal_id) SELECT NEW.animal_id WHERE NEW.animal_id <> OLD.animal_id;
END;
CREATE TRIGGER vaccinations_sync_delete AFTER DELETE ON vaccinations BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (OLD.animal_id);
END;
CREATE TRIGGER designations_sync_insert AFTER INSERT ON designations BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (NEW.animal_id);
END;
CREATE TRIGGER designations_sync_update AFTER UPDATE ON designations BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (OLD.animal_id);
	INSERT OR REPLACE INTO sync_changes (animal_id) SELECT NEW.animal_id WHERE NEW.animal_id <> OLD.animal_id;
END;
CREATE TRIGGER designations_sync_delete AFTER DELETE ON designations BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (OLD.animal_id);
END;
CREATE TRIGGER quarantines_sync_insert AFTER INSERT ON quarantines BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (NEW.animal_id);
END;
CREATE TRIGGER quarantines_sync_update AFTER UPDATE ON quarantines BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (OLD.animal_id);
	INSERT OR REPLACE INTO sync_changes (animal_id) SELECT NEW.animal_id WHERE NEW.animal_id <> OLD.animal_id;
END;
CREATE TRIGGER quarantines_sync_delete AFTER DELETE ON quarantines BEGIN
	INSERT OR REPLACE INTO sync_changes (animal_id) VALUES (OLD.animal_id);
END;

-- Every animal there is now counts as changed: a handheld's first pull
-- after this migration is a full one anyway.
INSERT INTO sync_changes (animal_id) SELECT id FROM animals ORDER BY id;
