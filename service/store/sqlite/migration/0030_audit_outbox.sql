-- The audit events of changes, written in the transaction of the change
-- and moved to the audit log's file afterwards (outbox.go). An event is
-- kept as the JSON of service.AuditEvent, so a field added to the event
-- needs no column here. AUTOINCREMENT: an id is never handed out twice,
-- so the audit log's mark of the last id moved stays meaningful.
CREATE TABLE audit_outbox (
	id    INTEGER PRIMARY KEY AUTOINCREMENT,
	event TEXT NOT NULL
);
