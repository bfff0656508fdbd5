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
// Rows go in by multi-row INSERTs of auditChunk events, one statement
// prepared once per transaction and run for every full chunk; the rest
// goes in by one INSERT of its size. Either every event is stored or
// none is; the events' IDs are not read back.
func (db *DB) CreateAuditEvents(ctx context.Context, evs []*service.AuditEvent) error {
	for _, e := range evs {
		if err := e.Validate(); err != nil {
			return err
		}
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		args := make([]any, 0, auditCols*min(len(evs), auditChunk))
		if len(evs) >= 2*auditChunk {
			// Parsing a statement of auditChunk rows costs about as much
			// as running it: done once, not once per chunk.
			st, err := tx.PrepareContext(ctx, auditInsert(auditChunk))
			if err != nil {
				return mapErr(err, "Audit event")
			}
			defer st.Close()
			for ; len(evs) >= auditChunk; evs = evs[auditChunk:] {
				args = appendAuditArgs(args[:0], evs[:auditChunk], now)
				if _, err := st.ExecContext(ctx, args...); err != nil {
					return mapErr(err, "Audit event")
				}
			}
		}
		for len(evs) > 0 {
			n := min(len(evs), auditChunk)
			args = appendAuditArgs(args[:0], evs[:n], now)
			if _, err := tx.ExecContext(ctx, auditInsert(n), args...); err != nil {
				return mapErr(err, "Audit event")
			}
			evs = evs[n:]
		}
		return nil
	})
}

// auditInsert is the INSERT of n audit events.
func auditInsert(n int) string {
	var b strings.Builder
	const head = `INSERT INTO audit_events (` + columns.Audit + `) VALUES `
	const row = `(?,?,?,?,?,?,?,?,?)`
	b.Grow(len(head) + n*(len(row)+1))
	b.WriteString(head)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(row)
	}
	return b.String()
}

// appendAuditArgs appends the columns.Audit values of evs, stamping
// those without a time with now.
func appendAuditArgs(args []any, evs []*service.AuditEvent, now time.Time) []any {
	for _, e := range evs {
		if e.At.IsZero() {
			e.At = now
		}
		// Role is a string type of its own: given as a string, the
		// driver takes it without reflection.
		args = append(args, nullID(e.ID), formatStamp(e.At), e.Actor, string(e.Role), e.Action, e.Entity, e.EntityID, e.Detail, e.Site)
	}
	return args
}

const (
	// auditChunk is the number of events per INSERT statement (9
	// parameters each, well under SQLite's limit of 32766).
	auditChunk = 100
	// auditCols is the number of columns.Audit.
	auditCols = 9
)
