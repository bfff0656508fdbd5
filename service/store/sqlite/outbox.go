package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// A change and its audit event are one (service.Change): the event of
// a change is written into the records' file, table audit_outbox, in
// the transaction of the change, and moved to the audit log's file
// after the commit. The move stores the events and the last outbox id
// moved (outbox_moved) in one audit transaction; the moved rows are
// deleted from the outbox by a later write transaction of the records.
// A crash between the two leaves rows that Open deletes without
// storing them again; a crash before the move leaves rows that Open
// moves. So every committed change has its event in the audit log once
// the store is open again, and no event is stored twice.
//
// A move commits with synchronous=FULL (audit.go), so it is on disk
// before the outbox rows it covers can be deleted; see docs/promises.md
// for what a power loss does to the records.

// outboxBatch is the most events moved in one audit transaction.
const outboxBatch = 1000

// putOutbox writes ev into the outbox in tx, stamping a zero At with
// now.
func (db *DB) putOutbox(ctx context.Context, tx *sql.Tx, now time.Time, ev *service.AuditEvent) error {
	if err := ev.Validate(); err != nil {
		return err
	}
	if ev.At.IsZero() {
		ev.At = now
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("sqlite: audit outbox: %w", err)
	}
	var id int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO audit_outbox (event) VALUES (?) RETURNING id`, string(b)).Scan(&id); err != nil {
		return mapErr(err, "Audit event")
	}
	db.outboxTop.Store(id)
	return nil
}

// pruneOutbox deletes, in the write transaction tx, the outbox rows the
// audit log holds already.
func (db *DB) pruneOutbox(ctx context.Context, tx *sql.Tx) error {
	moved := db.outboxMoved.Load()
	if moved <= db.outboxPruned.Load() {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM audit_outbox WHERE id <= ?`, moved); err != nil {
		return mapErr(err, "Audit event")
	}
	db.outboxPruned.Store(moved) // a rollback leaves rows the next write deletes
	return nil
}

// moveOutbox stores the outbox's events in the audit log, oldest first,
// reading them with q. It returns at once when nothing is pending.
func (db *DB) moveOutbox(ctx context.Context, q queryer) error {
	if db.outboxTop.Load() <= db.outboxMoved.Load() {
		return nil
	}
	db.moveMu.Lock()
	defer db.moveMu.Unlock()
	for {
		from := db.outboxMoved.Load()
		evs, last, err := readOutbox(ctx, q, from)
		if err != nil {
			return err
		}
		if len(evs) == 0 {
			return nil
		}
		err = writeIn(ctx, db.mdb, db.now, func(tx *sql.Tx, now time.Time) error {
			if err := insertAuditEvents(ctx, tx, evs, now); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO outbox_moved (one, last) VALUES (1, ?)
				ON CONFLICT (one) DO UPDATE SET last = MAX(last, excluded.last)`, last)
			return mapErr(err, "Audit event")
		})
		if err != nil {
			return err
		}
		db.outboxMoved.Store(last)
		if len(evs) < outboxBatch {
			return nil
		}
	}
}

// readOutbox reads the outbox's events after id from, in order, and the
// id of the last one read.
func readOutbox(ctx context.Context, q queryer, from int64) ([]*service.AuditEvent, int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, event FROM audit_outbox WHERE id > ? ORDER BY id LIMIT ?`, from, outboxBatch)
	if err != nil {
		return nil, 0, mapErr(err, "Audit event")
	}
	defer rows.Close()
	var (
		evs  []*service.AuditEvent
		last int64
	)
	for rows.Next() {
		var s string
		if err := rows.Scan(&last, &s); err != nil {
			return nil, 0, mapErr(err, "Audit event")
		}
		ev := new(service.AuditEvent)
		if err := json.Unmarshal([]byte(s), ev); err != nil {
			return nil, 0, fmt.Errorf("sqlite: audit outbox row %d: %w", last, err)
		}
		ev.ID = 0
		evs = append(evs, ev)
	}
	return evs, last, mapErr(rows.Err(), "Audit event")
}

// recoverOutbox is Open's part: it reads how far the audit log holds
// the outbox, makes sure the outbox never hands out an id at or below
// that mark again (a records' file restored from a backup), deletes the
// rows moved already and moves the rest.
func (db *DB) recoverOutbox(ctx context.Context) error {
	var moved, top int64
	err := db.adb.QueryRowContext(ctx, `SELECT COALESCE(MAX(last), 0) FROM outbox_moved`).Scan(&moved)
	if err != nil {
		return fmt.Errorf("sqlite: audit outbox: %w", err)
	}
	err = db.write(ctx, func(tx *sql.Tx, _ time.Time) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM audit_outbox WHERE id <= ?`, moved); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO sqlite_sequence (name, seq)
			SELECT 'audit_outbox', ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'audit_outbox')`, moved); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'audit_outbox'`, moved); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM audit_outbox`).Scan(&top)
	})
	if err != nil {
		return fmt.Errorf("sqlite: audit outbox: %w", err)
	}
	db.outboxMoved.Store(moved)
	db.outboxPruned.Store(moved)
	db.outboxTop.Store(top)
	return db.moveOutbox(ctx, db.wdb)
}
