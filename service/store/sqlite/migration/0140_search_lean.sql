-- The search indexes of 0110, leaner: a search matches each word's
-- prefix in any column and ranks nothing (service.SearchService orders by
-- name), so the indexes keep no positions or columns (detail=none) and
-- no row sizes (columnsize=0). At 100,000 animals they were a quarter
-- of the CSV files' size; now a twentieth. The triggers of 0110 keep
-- writing them as before.
DROP TABLE search_owners;
CREATE VIRTUAL TABLE search_owners USING fts5(name, address, city, postcode, content='owners', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3', detail=none, columnsize=0);
INSERT INTO search_owners (search_owners) VALUES ('rebuild');

DROP TABLE search_animals;
CREATE VIRTUAL TABLE search_animals USING fts5(name, content='animals', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3', detail=none, columnsize=0);
INSERT INTO search_animals (search_animals) VALUES ('rebuild');
