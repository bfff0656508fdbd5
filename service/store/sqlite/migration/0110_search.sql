-- Search the way clerks search (service.SearchService): the words of
-- owners' names and addresses and of animals' names in FTS5 indexes kept
-- by triggers, and owners' phones by their digits alone. Both are
-- derived (DerivedTable): a copy rebuilds them.
CREATE VIRTUAL TABLE search_owners USING fts5(name, address, city, postcode, content='owners', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
CREATE TRIGGER search_owners_ai AFTER INSERT ON owners BEGIN
	INSERT INTO search_owners (rowid, name, address, city, postcode) VALUES (new.id, new.name, new.address, new.city, new.postcode);
END;
CREATE TRIGGER search_owners_ad AFTER DELETE ON owners BEGIN
	INSERT INTO search_owners (search_owners, rowid, name, address, city, postcode) VALUES ('delete', old.id, old.name, old.address, old.city, old.postcode);
END;
CREATE TRIGGER search_owners_au AFTER UPDATE OF name, address, city, postcode ON owners BEGIN
	INSERT INTO search_owners (search_owners, rowid, name, address, city, postcode) VALUES ('delete', old.id, old.name, old.address, old.city, old.postcode);
	INSERT INTO search_owners (rowid, name, address, city, postcode) VALUES (new.id, new.name, new.address, new.city, new.postcode);
END;
INSERT INTO search_owners (search_owners) VALUES ('rebuild');

CREATE VIRTUAL TABLE search_animals USING fts5(name, content='animals', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
CREATE TRIGGER search_animals_ai AFTER INSERT ON animals BEGIN
	INSERT INTO search_animals (rowid, name) VALUES (new.id, new.name);
END;
CREATE TRIGGER search_animals_ad AFTER DELETE ON animals BEGIN
	INSERT INTO search_animals (search_animals, rowid, name) VALUES ('delete', old.id, old.name);
END;
CREATE TRIGGER search_animals_au AFTER UPDATE OF name ON animals BEGIN
	INSERT INTO search_animals (search_animals, rowid, name) VALUES ('delete', old.id, old.name);
	INSERT INTO search_animals (rowid, name) VALUES (new.id, new.name);
END;
INSERT INTO search_animals (search_animals) VALUES ('rebuild');

-- The expression is phoneDigits in search.go, character for character.
CREATE INDEX owners_phone_digits ON owners (replace(replace(replace(replace(replace(replace(phone, ' ', ''), '-', ''), '(', ''), ')', ''), '.', ''), '+', ''));
