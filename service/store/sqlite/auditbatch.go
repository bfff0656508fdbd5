package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// CreateAuditEvents stores events in order in one transaction: the batch
// form of CreateAuditEvent, which the HTTP layer's audit queue uses so
// that auditing every lookup costs one commit per batch, not per lookup.
// Either every event is stored (each gets its ID) or none is.
func (db *DB) CreateAuditEvents(ctx context.Context, evs []*service.AuditEvent) error {
	for _, e := range evs {
		if e.Actor == "" || e.Action == "" {
			return service.Errorf(service.EINVALID, "Audit event needs an actor and an action.")
		}
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		st, err := tx.PrepareContext(ctx, `INSERT INTO audit_events (`+auditCols+`) VALUES (?,?,?,?,?,?,?,?,?) RETURNING id`)
		if err != nil {
			return mapErr(err, "Audit event")
		}
		defer st.Close()
		for _, e := range evs {
			if e.At.IsZero() {
				e.At = now
			}
			if err := st.QueryRowContext(ctx, nullID(e.ID), formatStamp(e.At), e.Actor, e.Role, e.Action, e.Entity, e.EntityID, e.Detail, e.Site).Scan(&e.ID); err != nil {
				return mapErr(err, "Audit event")
			}
		}
		return nil
	})
}
