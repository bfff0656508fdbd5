-- The lookup rows: for each chip, every part of its animal's record but
-- the licences (animal, owner, chips, latest rabies vaccination, active
-- dangerous designation, open quarantines, impoundments, bites), as one
-- JSON array, so that a chip lookup reads one row instead of seeking
-- into nine tables (see lookuprows.go). They are derived data: triggers
-- mark the animals whose source rows change, and every write transaction
-- rebuilds the marked animals' rows before it commits, so a reader never
-- sees a row older than the records of its snapshot. Licences are read
-- live.
--
-- A rowid table with an index on the code, not a WITHOUT ROWID table
-- keyed by it: a WITHOUT ROWID table is an index b-tree, whose interior
-- pages hold whole rows (six bodies a page), so a million rows made a
-- tree seven levels deep that no page cache kept; the code index's
-- interior pages hold some two hundred codes each.
CREATE TABLE lookup_rows (
	id        INTEGER PRIMARY KEY,
	code      TEXT NOT NULL UNIQUE,
	animal_id INTEGER NOT NULL,
	body      TEXT NOT NULL
);
CREATE INDEX lookup_rows_animal ON lookup_rows (animal_id);

-- Animals whose lookup rows are to be rebuilt: empty between commits.
CREATE TABLE lookup_dirty (animal_id INTEGER PRIMARY KEY);

-- The body's layout (lookuprows.go: lookupShape); a different one means
-- every row is rebuilt when the store opens.
CREATE TABLE lookup_shape (shape TEXT NOT NULL);

-- A new animal has no chip yet, a new owner no animal: inserts of those
-- need no mark (a chip inserted later marks its animal).
CREATE TRIGGER animals_lookup_update AFTER UPDATE ON animals BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.id), (NEW.id);
END;
CREATE TRIGGER animals_lookup_delete AFTER DELETE ON animals BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.id);
END;
CREATE TRIGGER owners_lookup_update AFTER UPDATE ON owners BEGIN
	INSERT OR IGNORE INTO lookup_dirty SELECT id FROM animals WHERE owner_id IN (OLD.id, NEW.id);
END;
CREATE TRIGGER owners_lookup_delete AFTER DELETE ON owners BEGIN
	INSERT OR IGNORE INTO lookup_dirty SELECT id FROM animals WHERE owner_id = OLD.id;
END;
CREATE TRIGGER chips_lookup_insert AFTER INSERT ON chips BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (NEW.animal_id);
END;
CREATE TRIGGER chips_lookup_update AFTER UPDATE ON chips BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.animal_id), (NEW.animal_id);
END;
CREATE TRIGGER chips_lookup_delete AFTER DELETE ON chips BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.animal_id);
END;
CREATE TRIGGER vaccinations_lookup_insert AFTER INSERT ON vaccinations BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (NEW.animal_id);
END;
CREATE TRIGGER vaccinations_lookup_update AFTER UPDATE ON vaccinations BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.animal_id), (NEW.animal_id);
END;
CREATE TRIGGER vaccinations_lookup_delete AFTER DELETE ON vaccinations BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.animal_id);
END;
CREATE TRIGGER designations_lookup_insert AFTER INSERT ON designations BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (NEW.animal_id);
END;
CREATE TRIGGER designations_lookup_update AFTER UPDATE ON designations BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.animal_id), (NEW.animal_id);
END;
CREATE TRIGGER designations_lookup_delete AFTER DELETE ON designations BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.animal_id);
END;
CREATE TRIGGER quarantines_lookup_insert AFTER INSERT ON quarantines BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (NEW.animal_id);
END;
CREATE TRIGGER quarantines_lookup_update AFTER UPDATE ON quarantines BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.animal_id), (NEW.animal_id);
END;
CREATE TRIGGER quarantines_lookup_delete AFTER DELETE ON quarantines BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.animal_id);
END;
CREATE TRIGGER impoundments_lookup_insert AFTER INSERT ON impoundments BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (NEW.animal_id);
END;
CREATE TRIGGER impoundments_lookup_update AFTER UPDATE ON impoundments BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.animal_id), (NEW.animal_id);
END;
CREATE TRIGGER impoundments_lookup_delete AFTER DELETE ON impoundments BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.animal_id);
END;
CREATE TRIGGER bites_lookup_insert AFTER INSERT ON bites BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (NEW.animal_id);
END;
CREATE TRIGGER bites_lookup_update AFTER UPDATE ON bites BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.animal_id), (NEW.animal_id);
END;
CREATE TRIGGER bites_lookup_delete AFTER DELETE ON bites BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.animal_id);
END;

-- Rows for the animals already stored, built when the store opens.
INSERT INTO lookup_dirty SELECT DISTINCT animal_id FROM chips;
