package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// What a program that copies this store's files row by row (chipdesk
// migrate) needs to know of its storage format, so that it need not
// state it again: which tables hold records, their columns, and how
// values are kept.

// OpenCopy opens the database file at path for a copy: one connection,
// foreign keys on, with the audit log attached as schema "audit". Its
// audit_events, audit_compactions and audit_counts are the only tables
// of their names, so statements name every table unqualified. The store should have been opened (Open) and
// closed first, so that the schema is current and the audit outbox
// empty.
func OpenCopy(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)")
	if err != nil {
		return nil, fmt.Errorf("sqlite: open for copy: %w", err)
	}
	db.SetMaxOpenConns(1) // the one connection that has the log attached
	if _, err := db.Exec(`ATTACH DATABASE ? AS audit`, AuditPath(path)); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open for copy: %w", err)
	}
	return db, nil
}

// CopyColumns returns the columns of each table that a copy moves, in
// the table's order, read from db (OpenCopy): the records' tables and
// the audit log's events, compactions and counts, leaving out what the store derives or
// keeps for itself (DerivedTable, the audit outbox, the migrations).
func CopyColumns(ctx context.Context, db *sql.DB) (map[string][]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT m.name, p.name, p.cid FROM main.sqlite_master m, pragma_table_info(m.name, 'main') p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
		UNION ALL
		SELECT m.name, p.name, p.cid FROM audit.sqlite_master m, pragma_table_info(m.name, 'audit') p
		WHERE m.type = 'table' AND m.name IN ('audit_events', 'audit_compactions', 'audit_counts')
		ORDER BY 1, 3`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: columns: %w", err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var t, c string
		if err := rows.Scan(&t, &c, new(int)); err != nil {
			return nil, fmt.Errorf("sqlite: columns: %w", err)
		}
		if ownTable(t) {
			continue
		}
		out[t] = append(out[t], c)
	}
	return out, rows.Err()
}

// ownTable reports the tables a copy leaves out: derived ones, rebuilt
// by the target store, and the store's bookkeeping.
func ownTable(name string) bool {
	switch name {
	case "migrations", "audit_outbox", "sync_changes", "sqlite_sequence":
		return true
	}
	return DerivedTable(name)
}

// StoredValue is v as this store keeps it: an instant (time.Time) as
// fixed-width RFC 3339 UTC text with nanoseconds, so that text order is
// time order; a service.Date as YYYY-MM-DD (the zero date as NULL); a
// bool as 0 or 1. Other values are kept as they are.
func StoredValue(v any) any {
	switch x := v.(type) {
	case time.Time:
		return formatStamp(x)
	case service.Date:
		if x.IsZero() {
			return nil
		}
		return x.String()
	case bool:
		if x {
			return int64(1)
		}
		return int64(0)
	}
	return v
}

// ParseStamp reads an instant as this store keeps it.
func ParseStamp(s string) (time.Time, error) {
	var t time.Time
	err := stamp{&t}.Scan(s)
	return t, err
}
