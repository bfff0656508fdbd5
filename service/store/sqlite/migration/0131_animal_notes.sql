-- Field notes on animals (service.AnimalNote): what an officer wrote on a
-- handheld, applied once as a device event.
CREATE TABLE animal_notes (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	animal_id  INTEGER NOT NULL REFERENCES animals (id),
	at         TEXT NOT NULL,
	author     TEXT NOT NULL DEFAULT '',
	site       TEXT NOT NULL DEFAULT '',
	device     TEXT NOT NULL DEFAULT '',
	text       TEXT NOT NULL,
	created_at TEXT NOT NULL
);
CREATE INDEX animal_notes_animal ON animal_notes (animal_id, at);
