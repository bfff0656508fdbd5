-- The last audit_outbox id of the records' file whose event is stored
-- here, written in the transaction that stores it (outbox.go).
CREATE TABLE outbox_moved (
	one  INTEGER PRIMARY KEY CHECK (one = 1),
	last INTEGER NOT NULL
);
