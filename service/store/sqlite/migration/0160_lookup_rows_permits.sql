-- An animal's permits and open adoption agreements are kept in its
-- lookup rows (record.go: recordParts), where a lookup read them live in
-- two statements of their own each time: a write to either marks the
-- animal for rebuild. A permit of no animal (animal_id 0) marks none.
CREATE TRIGGER permits_lookup_insert AFTER INSERT ON permits WHEN NEW.animal_id <> 0 BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (NEW.animal_id);
END;
CREATE TRIGGER permits_lookup_update AFTER UPDATE ON permits BEGIN
	INSERT OR IGNORE INTO lookup_dirty SELECT id FROM animals WHERE id IN (OLD.animal_id, NEW.animal_id);
END;
CREATE TRIGGER permits_lookup_delete AFTER DELETE ON permits WHEN OLD.animal_id <> 0 BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.animal_id);
END;
CREATE TRIGGER adoption_agreements_lookup_insert AFTER INSERT ON adoption_agreements BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (NEW.animal_id);
END;
CREATE TRIGGER adoption_agreements_lookup_update AFTER UPDATE ON adoption_agreements BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.animal_id), (NEW.animal_id);
END;
CREATE TRIGGER adoption_agreements_lookup_delete AFTER DELETE ON adoption_agreements BEGIN
	INSERT OR IGNORE INTO lookup_dirty VALUES (OLD.animal_id);
END;
