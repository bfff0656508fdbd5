-- A charge may be on a shelter adoption's agreement too: the
-- sterilisation deposit of Minneapolis 64.140(a)(2). SQLite changes a
-- CHECK by making the table again; its payment lines keep pointing at
-- the same ids (the foreign keys are checked at the commit).
PRAGMA defer_foreign_keys = ON;
CREATE TABLE charges_before_0081 AS SELECT * FROM charges;
DROP VIEW charge_totals;
DROP TABLE charges;
CREATE TABLE charges (
	id           INTEGER PRIMARY KEY,
	payer_id     INTEGER REFERENCES owners (id),
	kind         TEXT NOT NULL,
	label        TEXT NOT NULL DEFAULT '',
	section      TEXT NOT NULL,
	amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
	subject_kind TEXT NOT NULL CHECK (subject_kind IN ('licence', 'impoundment', 'permit', 'adoption')),
	subject_id   INTEGER NOT NULL,
	jurisdiction TEXT NOT NULL DEFAULT '',
	site         TEXT NOT NULL DEFAULT '',
	on_day       TEXT NOT NULL,
	outcome      TEXT NOT NULL DEFAULT '' CHECK (outcome IN ('', 'refunded', 'forfeited')),
	outcome_on   TEXT,
	outcome_by   TEXT NOT NULL DEFAULT '',
	created_at   TEXT NOT NULL,
	UNIQUE (subject_kind, subject_id, kind)
);
INSERT INTO charges SELECT * FROM charges_before_0081;
DROP TABLE charges_before_0081;
CREATE INDEX charges_payer ON charges (payer_id);
CREATE INDEX charges_kind ON charges (kind, on_day);

-- A charge with what its payment lines settled (waivers included) and
-- the waived part of it.
CREATE VIEW charge_totals AS
SELECT c.*,
	COALESCE((SELECT SUM(pl.cents) FROM payment_lines pl WHERE pl.charge_id = c.id), 0) AS paid_cents,
	COALESCE((SELECT SUM(pl.cents) FROM payment_lines pl JOIN payments p ON p.id = pl.payment_id
		WHERE pl.charge_id = c.id AND p.method = 'waiver'), 0) AS waived_cents
FROM charges c;
