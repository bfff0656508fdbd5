-- Batches of pre-numbered tags: a range First..Last reserved from
-- tag_counters, made on a printer or engraver, with its progress (done).

CREATE TABLE tag_batches (
	id           INTEGER PRIMARY KEY,
	kind         TEXT NOT NULL,
	jurisdiction TEXT NOT NULL,
	year         INTEGER NOT NULL,
	first        INTEGER NOT NULL,
	last         INTEGER NOT NULL,
	species      TEXT NOT NULL DEFAULT '',
	key          TEXT NOT NULL UNIQUE,
	device       TEXT NOT NULL DEFAULT '',
	state        TEXT NOT NULL,
	done         INTEGER NOT NULL DEFAULT 0,
	error        TEXT NOT NULL DEFAULT '',
	attempts     INTEGER NOT NULL DEFAULT 0,
	created_at   TEXT NOT NULL,
	updated_at   TEXT NOT NULL,
	CHECK (first >= 1 AND last >= first AND done >= 0 AND done <= last - first + 1)
);
CREATE INDEX tag_batches_state ON tag_batches (state, kind, id);
