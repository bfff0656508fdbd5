-- The handhelds' data keys (service.DeviceKeyService): one per device
-- token (id is the token's id), the random 256-bit key a replica's
-- records are sealed with, base64. Never logged, never sent but to the
-- token's own pulls.
CREATE TABLE device_keys (
	id       BIGINT PRIMARY KEY,
	key_id   TEXT NOT NULL UNIQUE,
	data_key TEXT NOT NULL
);
