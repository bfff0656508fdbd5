-- Several sites on one database: the issuing site of a licence and the
-- site of an audit event (impoundments have had a site since 0001).

ALTER TABLE licences ADD COLUMN site TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_events ADD COLUMN site TEXT NOT NULL DEFAULT '';
CREATE INDEX licences_site ON licences (site, issued_on);
CREATE INDEX audit_events_site ON audit_events (site, actor, at);
