-- What the device recorded under an event id (service.DeviceEvent.Digest),
-- so that the id pushed again with other content is refused. Empty for
-- the events applied before: those are checked by kind and device only.
ALTER TABLE device_events ADD COLUMN digest TEXT NOT NULL DEFAULT '';
