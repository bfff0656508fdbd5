-- The audit log's retention (compact.go): the lookups' events of a UTC
-- day past the retention are replaced, in one transaction, by their
-- counts per day, actor, role, site, token, action, entity and detail.
-- A compaction says which events it removed and how many; the counts
-- of a compaction add up to its events.
CREATE TABLE audit_compactions (
	id            INTEGER PRIMARY KEY,
	at            TEXT NOT NULL,
	day           TEXT NOT NULL,
	before        TEXT NOT NULL,
	action_prefix TEXT NOT NULL CHECK (action_prefix <> ''),
	last_event_id INTEGER NOT NULL,
	events        INTEGER NOT NULL,
	counts        INTEGER NOT NULL
);
CREATE TABLE audit_counts (
	compaction_id INTEGER NOT NULL REFERENCES audit_compactions (id),
	day           TEXT NOT NULL,
	actor         TEXT NOT NULL,
	role          TEXT NOT NULL,
	site          TEXT NOT NULL,
	token_id      INTEGER NOT NULL,
	action        TEXT NOT NULL,
	entity        TEXT NOT NULL,
	entity_id     INTEGER NOT NULL,
	detail        TEXT NOT NULL,
	events        INTEGER NOT NULL CHECK (events > 0),
	first_at      TEXT NOT NULL,
	last_at       TEXT NOT NULL,
	PRIMARY KEY (compaction_id, day, actor, role, site, token_id, action, entity, entity_id, detail)
);
CREATE INDEX audit_counts_entity ON audit_counts (entity, entity_id);
CREATE INDEX audit_counts_site ON audit_counts (site, actor, day);
CREATE INDEX audit_counts_day ON audit_counts (day);
-- Both are append-only, as the events are.
CREATE TRIGGER audit_compactions_no_update BEFORE UPDATE ON audit_compactions
BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END;
CREATE TRIGGER audit_compactions_no_delete BEFORE DELETE ON audit_compactions
BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END;
CREATE TRIGGER audit_counts_no_update BEFORE UPDATE ON audit_counts
BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END;
CREATE TRIGGER audit_counts_no_delete BEFORE DELETE ON audit_counts
BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END;
-- An event leaves the log only as the latest compaction names it (of
-- its action prefix, before its instant, up to its last id) and only
-- into a count of that compaction with the event's day and key.
DROP TRIGGER audit_events_no_delete;
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
WHEN NOT EXISTS (SELECT 1 FROM audit_compactions c JOIN audit_counts k ON k.compaction_id = c.id
	WHERE c.id = (SELECT MAX(id) FROM audit_compactions)
	AND OLD.id <= c.last_event_id AND OLD.at < c.before
	AND substr(OLD.action, 1, length(c.action_prefix)) = c.action_prefix
	AND k.day = substr(OLD.at, 1, 10) AND k.actor = OLD.actor AND k.role = OLD.role AND k.site = OLD.site
	AND k.token_id = OLD.token_id AND k.action = OLD.action AND k.entity = OLD.entity
	AND k.entity_id = OLD.entity_id AND k.detail = OLD.detail)
BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END;
