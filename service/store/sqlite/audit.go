package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"net/url"
	"time"
)

// The audit log lives in a database file of its own, AuditPath beside
// the records' file. In WAL mode every commit to a file makes each of
// its readers drop its page cache at the next read; with the audit in
// the records' file, the batches of lookup events (several a second
// under load) kept the lookups re-reading the b-trees' interior pages,
// and a scan waited for the one write lock behind an audit batch. Now
// the two files have a writer each.
//
// A change's event is written in the change's own transaction into the
// records' file and moved here afterwards (outbox.go), so the two files
// never disagree on a change. A store opened on a file from before the
// split moves the events over once (moveAudit).

//go:embed auditmigration/*.sql
var auditMigrationFS embed.FS

// AuditPath is the audit log's file for the database file at path.
func AuditPath(path string) string { return path + "-audit" }

// openAudit opens (creating if needed) the audit log, applies its
// migrations and moves over the events of an older records' file. On
// failure db.adb is left for Close.
func (db *DB) openAudit(ctx context.Context, pragmas string) error {
	base := "file:" + (&url.URL{Path: AuditPath(db.path)}).EscapedPath()
	var err error
	db.adb, err = sql.Open("sqlite", base+"?"+pragmas+"&_pragma=journal_mode(WAL)&_pragma=cache_size(-2048)&_pragma=wal_autocheckpoint(10000)&_txlock=immediate")
	if err != nil {
		return fmt.Errorf("sqlite: open audit log: %w", err)
	}
	// One connection writes (BEGIN IMMEDIATE), one reads. The log's WAL
	// is copied back every 10,000 pages, not SQLite's 1,000: a lookup's
	// event dirties a page of the entity index, and fewer, larger
	// checkpoints copy each such page fewer times (7,221 -> 7,714
	// lookups/s at a million animals; a larger cache bought little more
	// for its memory).
	db.adb.SetMaxOpenConns(2)
	if err := migrate(ctx, db.adb, auditMigrationFS, "auditmigration"); err != nil {
		return err
	}
	// The outbox's moves (outbox.go) commit with synchronous=FULL, on a
	// connection of their own: a move is on disk before the outbox rows
	// it covers may be deleted. Only moves pay the fsync; the batches of
	// lookup events keep NORMAL.
	db.mdb, err = sql.Open("sqlite", base+"?"+pragmas+"&_pragma=synchronous(FULL)&_pragma=cache_size(-512)&_txlock=immediate")
	if err != nil {
		return fmt.Errorf("sqlite: open audit log: %w", err)
	}
	db.mdb.SetMaxOpenConns(1)
	return db.moveAudit(ctx)
}

// moveAudit moves the audit events of a records' file from before the
// split into the audit log and drops the table there: first a copy that
// keeps the events' ids (done again, it adds nothing), committed in the
// audit log, then the drop, committed in the records' file. A crash in
// between leaves a copy that the next open completes.
func (db *DB) moveAudit(ctx context.Context) error {
	var n int
	if err := db.wdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'audit_events'`).Scan(&n); err != nil {
		return fmt.Errorf("sqlite: move audit: %w", err)
	}
	if n == 0 {
		return nil
	}
	conn, err := db.wdb.Conn(ctx) // ATTACH is a connection's
	if err != nil {
		return fmt.Errorf("sqlite: move audit: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `ATTACH DATABASE ? AS audit`, AuditPath(db.path)); err != nil {
		return fmt.Errorf("sqlite: move audit: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `DETACH DATABASE audit`)
	for _, q := range []string{
		`INSERT OR IGNORE INTO audit.audit_events (` + movedAudit + `) SELECT ` + movedAudit + ` FROM main.audit_events`,
		`DROP TABLE main.audit_events`,
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("sqlite: move audit: %w", err)
		}
	}
	return nil
}

// movedAudit is the audit_events columns of a records' file from before
// the split, which has no token_id.
const movedAudit = `id, at, actor, role, action, entity, entity_id, detail, site`

// writeAudit runs fn in one IMMEDIATE transaction of the audit log.
func (db *DB) writeAudit(ctx context.Context, fn func(tx *sql.Tx, now time.Time) error) error {
	return writeIn(ctx, db.adb, db.now, fn)
}

// writeIn runs fn in one IMMEDIATE transaction of q.
func writeIn(ctx context.Context, q *sql.DB, clock func() time.Time, fn func(tx *sql.Tx, now time.Time) error) error {
	tx, err := q.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: begin: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx, clock().UTC()); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return mapErr(err, "Audit event")
	}
	return nil
}
