-- The audit log, in a database file of its own beside the records
-- (audit.go): its writes never touch the records' file, whose readers
-- would otherwise drop their page caches at every audit commit.
-- The columns and indexes are those of migration/0001 and 0002.
CREATE TABLE audit_events (
	id        INTEGER PRIMARY KEY,
	at        TEXT NOT NULL,
	actor     TEXT NOT NULL,
	role      TEXT NOT NULL DEFAULT '',
	action    TEXT NOT NULL,
	entity    TEXT NOT NULL DEFAULT '',
	entity_id INTEGER NOT NULL DEFAULT 0,
	detail    TEXT NOT NULL DEFAULT '',
	site      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_events_at ON audit_events (at);
CREATE INDEX audit_events_entity ON audit_events (entity, entity_id);
CREATE INDEX audit_events_site ON audit_events (site, actor, at);
