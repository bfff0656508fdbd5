-- Staff accounts: a person signs in to the pages with a name and a
-- password (bcrypt hash). Disabling an account ends its sessions.
CREATE TABLE users (
	id          INTEGER PRIMARY KEY,
	name        TEXT NOT NULL UNIQUE,
	role        TEXT NOT NULL,
	site        TEXT NOT NULL DEFAULT '',
	hash        TEXT NOT NULL,
	created_at  TEXT NOT NULL,
	disabled_at TEXT
);
