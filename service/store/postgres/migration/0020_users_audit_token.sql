-- Staff accounts: a person signs in to the pages with a name and a
-- password (bcrypt hash). Disabling an account ends its sessions.
CREATE TABLE users (
	id          BIGSERIAL PRIMARY KEY,
	name        TEXT NOT NULL UNIQUE,
	role        TEXT NOT NULL,
	site        TEXT NOT NULL DEFAULT '',
	hash        TEXT NOT NULL,
	created_at  TIMESTAMPTZ NOT NULL,
	disabled_at TIMESTAMPTZ
);

-- Every audit entry names the token (or account) that acted, and the
-- log is append-only: an UPDATE, DELETE or TRUNCATE raises.
ALTER TABLE audit_events ADD COLUMN token_id BIGINT NOT NULL DEFAULT 0;
CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'audit log is append-only';
END $$;
CREATE TRIGGER audit_events_no_change BEFORE UPDATE OR DELETE ON audit_events
	FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
	FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
