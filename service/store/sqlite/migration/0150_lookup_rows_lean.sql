-- The lookup rows without the code of an ISO 11784 chip: such a row's
-- rowid is the code's fifteen digits read as an integer (0008), which
-- give the code back, so the row keeps NULL in its place; the rows of
-- other codes keep theirs (lookuprows.go: lookupCodeSQL). Sixteen bytes a
-- chip. The rows are rebuilt when the store opens (the layout is new).
DROP TABLE lookup_rows;
CREATE TABLE lookup_rows (
	id        INTEGER PRIMARY KEY,
	code      TEXT,
	animal_id INTEGER NOT NULL,
	body      TEXT NOT NULL
);
CREATE INDEX lookup_rows_animal ON lookup_rows (animal_id);
DELETE FROM lookup_shape;
