-- Charges, payments (the receipts), day closes, fee exemptions and the
-- reminder outbox (service.MoneyService). Amounts are integer cents.
CREATE TABLE charges (
	id           INTEGER PRIMARY KEY,
	payer_id     INTEGER REFERENCES owners (id),
	kind         TEXT NOT NULL,
	label        TEXT NOT NULL DEFAULT '',
	section      TEXT NOT NULL,
	amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
	subject_kind TEXT NOT NULL CHECK (subject_kind IN ('licence', 'impoundment', 'permit')),
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
CREATE INDEX charges_payer ON charges (payer_id);
CREATE INDEX charges_kind ON charges (kind, on_day);

CREATE TABLE payments (
	id           INTEGER PRIMARY KEY,
	kind         TEXT NOT NULL CHECK (kind IN ('payment', 'refund', 'void')),
	method       TEXT NOT NULL CHECK (method IN ('cash', 'card', 'cheque', 'waiver')),
	amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
	reference    TEXT NOT NULL DEFAULT '',
	approved_by  TEXT NOT NULL DEFAULT '',
	reverses     INTEGER REFERENCES payments (id),
	pay_key      TEXT UNIQUE,
	site         TEXT NOT NULL DEFAULT '',
	till         TEXT NOT NULL DEFAULT '',
	taken_by     TEXT NOT NULL DEFAULT '',
	on_day       TEXT NOT NULL,
	created_at   TEXT NOT NULL
);
CREATE INDEX payments_day ON payments (on_day, site, till);
CREATE INDEX payments_reverses ON payments (reverses);

CREATE TABLE payment_lines (
	payment_id INTEGER NOT NULL REFERENCES payments (id),
	charge_id  INTEGER NOT NULL REFERENCES charges (id),
	cents      INTEGER NOT NULL,
	PRIMARY KEY (payment_id, charge_id)
) WITHOUT ROWID;
CREATE INDEX payment_lines_charge ON payment_lines (charge_id);

CREATE TABLE day_closes (
	site      TEXT NOT NULL,
	till      TEXT NOT NULL,
	on_day    TEXT NOT NULL,
	closed_by TEXT NOT NULL,
	closed_at TEXT NOT NULL,
	PRIMARY KEY (site, till, on_day)
) WITHOUT ROWID;

CREATE TABLE exemptions (
	id          INTEGER PRIMARY KEY,
	animal_id   INTEGER NOT NULL REFERENCES animals (id),
	kind        TEXT NOT NULL,
	section     TEXT NOT NULL,
	approved_by TEXT NOT NULL,
	note        TEXT NOT NULL DEFAULT '',
	on_day      TEXT NOT NULL,
	created_at  TEXT NOT NULL
);
CREATE INDEX exemptions_animal ON exemptions (animal_id);

CREATE TABLE reminders (
	id         INTEGER PRIMARY KEY,
	cycle      TEXT NOT NULL,
	owner_id   INTEGER NOT NULL REFERENCES owners (id),
	channel    TEXT NOT NULL CHECK (channel IN ('email', 'letter')),
	name       TEXT NOT NULL DEFAULT '',
	email      TEXT NOT NULL DEFAULT '',
	address    TEXT NOT NULL DEFAULT '',
	tags       TEXT NOT NULL DEFAULT '',
	licence_id INTEGER NOT NULL,
	expires_on TEXT NOT NULL,
	state      TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'failed')),
	attempts   INTEGER NOT NULL DEFAULT 0,
	error      TEXT NOT NULL DEFAULT '',
	sent_at    TEXT,
	created_at TEXT NOT NULL,
	UNIQUE (cycle, owner_id)
);
CREATE INDEX reminders_state ON reminders (cycle, channel, state, id);

-- A charge with what its payment lines settled (waivers included) and
-- the waived part of it.
CREATE VIEW charge_totals AS
SELECT c.*,
	COALESCE((SELECT SUM(pl.cents) FROM payment_lines pl WHERE pl.charge_id = c.id), 0) AS paid_cents,
	COALESCE((SELECT SUM(pl.cents) FROM payment_lines pl JOIN payments p ON p.id = pl.payment_id
		WHERE pl.charge_id = c.id AND p.method = 'waiver'), 0) AS waived_cents
FROM charges c;
