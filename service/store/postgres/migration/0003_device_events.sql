-- Events pushed by offline handhelds: the device's own event id makes a
-- push idempotent (service.DeviceEventService). record_id is the scan or
-- bite the event created.

CREATE TABLE device_events (
	id          TEXT PRIMARY KEY,
	device      TEXT NOT NULL,
	kind        TEXT NOT NULL,
	at          TIMESTAMPTZ NOT NULL,
	received_at TIMESTAMPTZ NOT NULL,
	user_name   TEXT NOT NULL DEFAULT '',
	site        TEXT NOT NULL DEFAULT '',
	record_id   BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX device_events_device ON device_events (device, received_at);
