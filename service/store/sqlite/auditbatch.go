package sqlite

import (
	"context"
	"database/sql"
	"slices"
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
	return db.writeAudit(ctx, func(tx *sql.Tx, now time.Time) error {
		return insertAuditEvents(ctx, tx, evs, now)
	})
}

// insertAuditEvents is CreateAuditEvents' insert, in the audit log's
// transaction tx.
func insertAuditEvents(ctx context.Context, tx *sql.Tx, evs []*service.AuditEvent, now time.Time) error {
	withID := !strings.HasPrefix(columns.Audit, "id, ") ||
		slices.ContainsFunc(evs, func(e *service.AuditEvent) bool { return e.ID != 0 })
	args := make([]any, 0, auditCols*min(len(evs), auditChunk))
	if len(evs) >= 2*auditChunk {
		// Parsing a statement of auditChunk rows costs about as much
		// as running it: done once, not once per chunk.
		st, err := tx.PrepareContext(ctx, auditInsert(auditChunk, withID))
		if err != nil {
			return mapErr(err, "Audit event")
		}
		defer st.Close()
		for ; len(evs) >= auditChunk; evs = evs[auditChunk:] {
			args = appendAuditArgs(args[:0], evs[:auditChunk], now, withID)
			if _, err := st.ExecContext(ctx, args...); err != nil {
				return mapErr(err, "Audit event")
			}
		}
	}
	for len(evs) > 0 {
		n := min(len(evs), auditChunk)
		args = appendAuditArgs(args[:0], evs[:n], now, withID)
		if _, err := tx.ExecContext(ctx, auditInsert(n, withID), args...); err != nil {
			return mapErr(err, "Audit event")
		}
		evs = evs[n:]
	}
	return nil
}

// auditInsert is the INSERT of n audit events, with their ids or
// without (SQLite numbers the rows then).
//
// Without ids it is INSERT OR ROLLBACK: a statement that can neither fail
// halfway on a given rowid nor abort on a constraint needs no statement
// journal, which SQLite otherwise writes for every page a multi-row
// INSERT changes inside a transaction. A refused row then rolls back the
// whole transaction at once, as CreateAuditEvents would anyway.
func auditInsert(n int, withID bool) string {
	head, row := `INSERT INTO audit_events (`+columns.Audit+`) VALUES `, `(?,?,?,?,?,?,?,?,?,?)`
	if !withID {
		cols := strings.TrimPrefix(columns.Audit, "id, ")
		head, row = `INSERT OR ROLLBACK INTO audit_events (`+cols+`) VALUES `, `(?,?,?,?,?,?,?,?,?)`
	}
	var b strings.Builder
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

// appendAuditArgs appends the columns.Audit values of evs (without id
// unless withID), stamping those without a time with now. withID is set
// unless id is the first of columns.Audit.
func appendAuditArgs(args []any, evs []*service.AuditEvent, now time.Time, withID bool) []any {
	for _, e := range evs {
		if e.At.IsZero() {
			e.At = now
		}
		if withID {
			args = append(args, nullID(e.ID))
		}
		// Role is a string type of its own: given as a string, the
		// driver takes it without reflection.
		args = append(args, formatStamp(e.At), e.Actor, string(e.Role), e.Action, e.Entity, e.EntityID, e.Detail, e.Site, e.TokenID)
	}
	return args
}

const (
	// auditChunk is the number of events per INSERT statement (10
	// parameters each, well under SQLite's limit of 32766).
	auditChunk = 100
	// auditCols is the number of columns.Audit.
	auditCols = 10
)
