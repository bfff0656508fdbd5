-- Every audit entry names the token (or account session) that acted,
-- and the log is append-only: no statement may change or remove an
-- entry once written (an UPDATE or DELETE aborts).
ALTER TABLE audit_events ADD COLUMN token_id INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END;
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END;
