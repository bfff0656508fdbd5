-- Idempotency-Keys of create requests (service.IdempotencyService): the
-- key is written in the transaction that creates the record, with the
-- answer a retry gets. created_at is Unix nanoseconds; keys older than
-- service.IdempotencyTTL are deleted by the writes that add keys.
CREATE TABLE idempotency_keys (
	actor      TEXT NOT NULL,
	idem_key   TEXT NOT NULL,
	method     TEXT NOT NULL,
	path       TEXT NOT NULL,
	body_hash  TEXT NOT NULL,
	status     INTEGER NOT NULL,
	body       BLOB NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (actor, idem_key)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
