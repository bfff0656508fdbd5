-- Field notes on animals (service.AnimalNote): what an officer wrote on a
-- handheld, applied once as a device event.
CREATE TABLE animal_notes (
	id         BIGSERIAL PRIMARY KEY,
	animal_id  BIGINT NOT NULL REFERENCES animals (id),
	at         TIMESTAMPTZ NOT NULL,
	author     TEXT NOT NULL DEFAULT '',
	site       TEXT NOT NULL DEFAULT '',
	device     TEXT NOT NULL DEFAULT '',
	text       TEXT NOT NULL,
	created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX animal_notes_animal ON animal_notes (animal_id, at);
