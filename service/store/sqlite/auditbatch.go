package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

// CreateAuditEvents stores events in order in one transaction: the batch
// form of CreateAuditEvent, which the HTTP layer's audit queue uses so
// that auditing every lookup costs one commit per batch, not per lookup.
// Rows go in by multi-row INSERTs of auditChunk events. Either every
// event is stored or none is; the events' IDs are not read back.
func (db *DB) CreateAuditEvents(ctx context.Context, evs []*service.AuditEvent) error {
	for _, e := range evs {
		if err := e.Validate(); err != nil {
			return err
		}
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		args := make([]any, 0, 9*auditChunk)
		for len(evs) > 0 {
			n := min(len(evs), auditChunk)
			args = args[:0]
			for _, e := range evs[:n] {
				if e.At.IsZero() {
					e.At = now
				}
				args = append(args, nullID(e.ID), formatStamp(e.At), e.Actor, e.Role, e.Action, e.Entity, e.EntityID, e.Detail, e.Site)
			}
			q := `INSERT INTO audit_events (` + columns.Audit + `) VALUES ` +
				strings.TrimSuffix(strings.Repeat("(?,?,?,?,?,?,?,?,?),", n), ",")
			if _, err := tx.ExecContext(ctx, q, args...); err != nil {
				return mapErr(err, "Audit event")
			}
			evs = evs[n:]
		}
		return nil
	})
}

// auditChunk is the number of events per INSERT statement (9 parameters
// each, well under SQLite's limit of 32766).
const auditChunk = 100
