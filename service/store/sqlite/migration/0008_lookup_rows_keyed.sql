-- The lookup rows keyed by the chip's number (lookuprows.go: lookupKey):
-- an ISO 11784 code's row has the code's fifteen digits read as an
-- integer for its rowid, so a lookup is one search of one b-tree, not a
-- search of the code index and then of the rows (at a million animals,
-- a leaf page fewer read for every lookup). Other codes' rows have their
-- chip's id, negated, and are found through the chips' code index. The
-- rows are rebuilt when the store opens (the layout is new).
DROP TABLE lookup_rows;
CREATE TABLE lookup_rows (
	id        INTEGER PRIMARY KEY,
	code      TEXT NOT NULL,
	animal_id INTEGER NOT NULL,
	body      TEXT NOT NULL
);
CREATE INDEX lookup_rows_animal ON lookup_rows (animal_id);
DELETE FROM lookup_shape;
