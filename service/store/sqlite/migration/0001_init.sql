-- chipdesk schema, version 1. Dates are TEXT 'YYYY-MM-DD' (NULL: none);
-- instants are TEXT RFC 3339 in UTC with nanoseconds (NULL: none); money
-- is INTEGER cents.

CREATE TABLE owners (
	id         INTEGER PRIMARY KEY,
	name       TEXT NOT NULL,
	address    TEXT NOT NULL DEFAULT '',
	city       TEXT NOT NULL DEFAULT '',
	state      TEXT NOT NULL DEFAULT '',
	postcode   TEXT NOT NULL DEFAULT '',
	phone      TEXT NOT NULL DEFAULT '',
	email      TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);

CREATE TABLE animals (
	id          INTEGER PRIMARY KEY,
	owner_id    INTEGER REFERENCES owners (id),
	name        TEXT NOT NULL DEFAULT '',
	species     TEXT NOT NULL CHECK (species IN ('dog', 'cat', 'ferret', 'other')),
	breed       TEXT NOT NULL DEFAULT '',
	colour      TEXT NOT NULL DEFAULT '',
	sex         TEXT NOT NULL DEFAULT '',
	altered     INTEGER NOT NULL DEFAULT 0,
	birth_date  TEXT,
	description TEXT NOT NULL DEFAULT '',
	photo       TEXT NOT NULL DEFAULT '',
	programme   TEXT NOT NULL DEFAULT '',
	died_on     TEXT,
	created_at  TEXT NOT NULL,
	updated_at  TEXT NOT NULL
);
CREATE INDEX animals_owner ON animals (owner_id);

CREATE TABLE chips (
	id           INTEGER PRIMARY KEY,
	animal_id    INTEGER NOT NULL REFERENCES animals (id),
	code         TEXT NOT NULL UNIQUE,
	kind         TEXT NOT NULL,
	manufacturer TEXT NOT NULL DEFAULT '',
	implant_date TEXT,
	created_at   TEXT NOT NULL
);
CREATE INDEX chips_animal ON chips (animal_id);

CREATE TABLE licences (
	id               INTEGER PRIMARY KEY,
	animal_id        INTEGER NOT NULL REFERENCES animals (id),
	kind             TEXT NOT NULL,
	jurisdiction     TEXT NOT NULL,
	year             INTEGER NOT NULL,
	tag_number       INTEGER NOT NULL,
	issued_on        TEXT NOT NULL,
	expires_on       TEXT NOT NULL,
	status           TEXT NOT NULL,
	fee_cents        INTEGER NOT NULL DEFAULT 0,
	fee_code         TEXT NOT NULL DEFAULT '',
	issued_by        TEXT NOT NULL,
	clinic           TEXT NOT NULL DEFAULT '',
	clinic_pay_cents INTEGER NOT NULL DEFAULT 0,
	replaces         INTEGER REFERENCES licences (id),
	replace_reason   TEXT NOT NULL DEFAULT '',
	created_at       TEXT NOT NULL,
	UNIQUE (jurisdiction, year, tag_number)
);
CREATE INDEX licences_animal ON licences (animal_id, issued_on);
CREATE INDEX licences_expires ON licences (expires_on);

-- tag_counters holds the last tag number handed out per jurisdiction
-- and year; it is bumped in the transaction that inserts the licence.
CREATE TABLE tag_counters (
	jurisdiction TEXT NOT NULL,
	year         INTEGER NOT NULL,
	last         INTEGER NOT NULL,
	PRIMARY KEY (jurisdiction, year)
);

CREATE TABLE vaccinations (
	id                 INTEGER PRIMARY KEY,
	animal_id          INTEGER NOT NULL REFERENCES animals (id),
	date               TEXT NOT NULL,
	type               TEXT NOT NULL DEFAULT '',
	duration_months    INTEGER NOT NULL DEFAULT 0,
	extended_certified INTEGER NOT NULL DEFAULT 0,
	product            TEXT NOT NULL DEFAULT '',
	manufacturer       TEXT NOT NULL DEFAULT '',
	lot                TEXT NOT NULL DEFAULT '',
	lot_expires        TEXT,
	veterinarian       TEXT NOT NULL DEFAULT '',
	vet_licence        TEXT NOT NULL DEFAULT '',
	certificate        TEXT NOT NULL DEFAULT '',
	rabies_tag         TEXT NOT NULL DEFAULT '',
	created_at         TEXT NOT NULL
);
CREATE INDEX vaccinations_animal ON vaccinations (animal_id, date);

CREATE TABLE designations (
	id                  INTEGER PRIMARY KEY,
	animal_id           INTEGER NOT NULL REFERENCES animals (id),
	level               TEXT NOT NULL,
	jurisdiction        TEXT NOT NULL,
	declared_on         TEXT NOT NULL,
	decision_on         TEXT,
	authority           TEXT NOT NULL DEFAULT '',
	conditions          TEXT NOT NULL DEFAULT '',
	registered_on       TEXT,
	registration_number TEXT NOT NULL DEFAULT '',
	sign_on             TEXT,
	microchip_on        TEXT,
	sterilised_on       TEXT,
	photo_on            TEXT,
	insured_on          TEXT,
	insurance_cents     INTEGER NOT NULL DEFAULT 0,
	insurance_expires   TEXT,
	rescinded_on        TEXT,
	created_at          TEXT NOT NULL,
	updated_at          TEXT NOT NULL
);
CREATE INDEX designations_animal ON designations (animal_id);

CREATE TABLE bites (
	id          INTEGER PRIMARY KEY,
	animal_id   INTEGER NOT NULL REFERENCES animals (id),
	date        TEXT NOT NULL,
	victim      TEXT NOT NULL,
	skin_broken INTEGER NOT NULL DEFAULT 0,
	provoked    INTEGER NOT NULL DEFAULT 0,
	location    TEXT NOT NULL DEFAULT '',
	notes       TEXT NOT NULL DEFAULT '',
	created_at  TEXT NOT NULL
);
CREATE INDEX bites_animal ON bites (animal_id, date);

CREATE TABLE quarantines (
	id          INTEGER PRIMARY KEY,
	animal_id   INTEGER NOT NULL REFERENCES animals (id),
	bite_id     INTEGER REFERENCES bites (id),
	kind        TEXT NOT NULL,
	place       TEXT NOT NULL,
	start_on    TEXT NOT NULL,
	end_on      TEXT NOT NULL,
	released_on TEXT,
	notes       TEXT NOT NULL DEFAULT '',
	created_at  TEXT NOT NULL
);
CREATE INDEX quarantines_animal ON quarantines (animal_id);

CREATE TABLE impoundments (
	id               INTEGER PRIMARY KEY,
	animal_id        INTEGER NOT NULL REFERENCES animals (id),
	jurisdiction     TEXT NOT NULL,
	intake_at        TEXT NOT NULL,
	intake_on        TEXT NOT NULL,
	site             TEXT NOT NULL DEFAULT '',
	where_found      TEXT NOT NULL DEFAULT '',
	notice_on        TEXT,
	hold_until       TEXT,
	bite_case        INTEGER NOT NULL DEFAULT 0,
	disposition      TEXT NOT NULL DEFAULT '',
	disposition_on   TEXT,
	disposition_note TEXT NOT NULL DEFAULT '',
	fees_cents       INTEGER NOT NULL DEFAULT 0,
	created_at       TEXT NOT NULL,
	updated_at       TEXT NOT NULL
);
CREATE INDEX impoundments_animal ON impoundments (animal_id, intake_on);
CREATE INDEX impoundments_open ON impoundments (disposition, intake_on);

CREATE TABLE scans (
	id        INTEGER PRIMARY KEY,
	at        TEXT NOT NULL,
	reader    TEXT NOT NULL DEFAULT '',
	chip_code TEXT NOT NULL,
	chip_kind TEXT NOT NULL DEFAULT '',
	user_name TEXT NOT NULL DEFAULT '',
	site      TEXT NOT NULL DEFAULT '',
	animal_id INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX scans_at ON scans (at);
CREATE INDEX scans_chip ON scans (chip_code, at);

CREATE TABLE audit_events (
	id        INTEGER PRIMARY KEY,
	at        TEXT NOT NULL,
	actor     TEXT NOT NULL,
	role      TEXT NOT NULL DEFAULT '',
	action    TEXT NOT NULL,
	entity    TEXT NOT NULL DEFAULT '',
	entity_id INTEGER NOT NULL DEFAULT 0,
	detail    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_events_at ON audit_events (at);
CREATE INDEX audit_events_entity ON audit_events (entity, entity_id);

CREATE TABLE tokens (
	id           INTEGER PRIMARY KEY,
	name         TEXT NOT NULL,
	role         TEXT NOT NULL,
	site         TEXT NOT NULL DEFAULT '',
	hash         BLOB NOT NULL UNIQUE,
	created_at   TEXT NOT NULL,
	expires_at   TEXT,
	revoked_at   TEXT,
	last_used_at TEXT
);

CREATE TABLE jobs (
	id         INTEGER PRIMARY KEY,
	kind       TEXT NOT NULL,
	licence_id INTEGER NOT NULL REFERENCES licences (id),
	reason     TEXT NOT NULL,
	key        TEXT NOT NULL UNIQUE,
	device     TEXT NOT NULL DEFAULT '',
	state      TEXT NOT NULL,
	error      TEXT NOT NULL DEFAULT '',
	attempts   INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);
CREATE INDEX jobs_state ON jobs (state, kind, id);
CREATE INDEX jobs_licence ON jobs (licence_id);
