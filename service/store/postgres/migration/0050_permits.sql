-- Permits other than animal licences (kennel 5-18, stable 5-101,
-- off-leash 64.55, more than three dogs or cats 64.100, animal
-- businesses 68.10), shelter sterilisation agreements (64.140) and bite
-- and rabies-suspect reports (66.60, 66.70). The record is kept whole in
-- body; the columns are what lists select on.
CREATE TABLE permits (
	id           BIGSERIAL PRIMARY KEY,
	kind         TEXT NOT NULL,
	jurisdiction TEXT NOT NULL,
	state        TEXT NOT NULL,
	owner_id     BIGINT NOT NULL DEFAULT 0,
	animal_id    BIGINT NOT NULL DEFAULT 0,
	holder       TEXT NOT NULL DEFAULT '',
	expires_on   DATE,
	year         INTEGER NOT NULL DEFAULT 0,
	tag_number   INTEGER NOT NULL DEFAULT 0,
	body         TEXT NOT NULL,
	created_at   TIMESTAMPTZ NOT NULL,
	updated_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX permits_kind ON permits (kind, jurisdiction, state);
CREATE INDEX permits_animal ON permits (animal_id);
CREATE INDEX permits_owner ON permits (owner_id);
CREATE UNIQUE INDEX permits_tag ON permits (jurisdiction, kind, year, tag_number) WHERE tag_number <> 0;

-- The last registration number given per jurisdiction, kind and year
-- (64.55(b): a tag with a registration number and the year).
CREATE TABLE permit_counters (
	jurisdiction TEXT NOT NULL,
	kind         TEXT NOT NULL,
	year         INTEGER NOT NULL,
	last         INTEGER NOT NULL,
	PRIMARY KEY (jurisdiction, kind, year)
);

CREATE TABLE adoption_agreements (
	id           BIGSERIAL PRIMARY KEY,
	animal_id    BIGINT NOT NULL,
	jurisdiction TEXT NOT NULL,
	open         BOOLEAN NOT NULL,
	due_on       DATE NOT NULL,
	body         TEXT NOT NULL,
	created_at   TIMESTAMPTZ NOT NULL,
	updated_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX adoption_agreements_open ON adoption_agreements (open, due_on);
CREATE INDEX adoption_agreements_animal ON adoption_agreements (animal_id);

CREATE TABLE animal_reports (
	id           BIGSERIAL PRIMARY KEY,
	kind         TEXT NOT NULL,
	jurisdiction TEXT NOT NULL,
	open         BOOLEAN NOT NULL,
	reported_on  DATE NOT NULL,
	body         TEXT NOT NULL,
	created_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX animal_reports_open ON animal_reports (open, reported_on);
