package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"
)

// importTables are the tables an import writes, in the order it writes
// them.
var importTables = []string{"owners", "animals", "chips", "licences", "vaccinations"}

// rowTrigger matches the body of a trigger that does one thing per row
// inserted: one INSERT of one row of values, which may name NEW (the
// lookup rows' marks, the change sequence, the search indexes).
var rowTrigger = regexp.MustCompile(`(?is)^CREATE TRIGGER \S+ AFTER INSERT ON \S+ BEGIN\s+(INSERT [^;]*?) VALUES \(([^;()]*(?:\([^;()]*\)[^;()]*)*)\);\s*END$`)

// suspendedTriggers are the per-row insert triggers of importTables that
// an import dropped (suspendTriggers), each with its statement applied
// to many rows at once, and the rows it is owed: those past the table's
// last rowid before the import, and those the import stored below it
// (seen), ids of their own filling gaps.
type suspendedTriggers struct {
	defs []string            // CREATE TRIGGER statements
	bulk map[string][]string // per table: the triggers' statements, for rows WHERE NEW.rowid ... (a suffix)
	last map[string]int64    // per table: the last rowid before the import
	low  map[string][]int64  // per table: ids stored at or below last
}

// seen tells s that the import stored row id of table; ids past the
// table's last rowid need no telling.
func (s *suspendedTriggers) seen(table string, id int64) {
	if last, ok := s.last[table]; ok && id <= last {
		s.low[table] = append(s.low[table], id)
	}
}

// suspendTriggers drops, inside an import's transaction, the insert
// triggers of importTables that write one row per row inserted (a
// million firings each for a million animals: the lookup rows' marks,
// the handhelds' change sequence, the search indexes, whose FTS5 tables
// also flushed their pending terms at every statement), and keeps each
// one's INSERT ... VALUES as an INSERT ... SELECT over the table with
// the alias NEW, which resume runs once for all the imported rows. A
// trigger of another shape keeps firing. Readers keep the schema of
// their snapshot; a rollback restores the triggers.
func suspendTriggers(ctx context.Context, tx *sql.Tx) (*suspendedTriggers, error) {
	s := &suspendedTriggers{bulk: map[string][]string{}, last: map[string]int64{}, low: map[string][]int64{}}
	for _, table := range importTables {
		rows, err := tx.QueryContext(ctx, `SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ? ORDER BY name`, table)
		if err != nil {
			return nil, mapErr(err, "Import")
		}
		var names, defs []string
		for rows.Next() {
			var name, def string
			if err := rows.Scan(&name, &def); err != nil {
				rows.Close()
				return nil, mapErr(err, "Import")
			}
			names, defs = append(names, name), append(defs, def)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, mapErr(err, "Import")
		}
		for i, def := range defs {
			m := rowTrigger.FindStringSubmatch(def)
			if m == nil {
				continue
			}
			if _, ok := s.last[table]; !ok {
				var last int64
				if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(rowid), 0) FROM "`+table+`"`).Scan(&last); err != nil {
					return nil, mapErr(err, "Import")
				}
				s.last[table] = last
			}
			if _, err := tx.ExecContext(ctx, `DROP TRIGGER "`+strings.ReplaceAll(names[i], `"`, `""`)+`"`); err != nil {
				return nil, mapErr(err, "Import")
			}
			s.defs = append(s.defs, def)
			s.bulk[table] = append(s.bulk[table], m[1]+` SELECT `+m[2]+` FROM "`+table+`" AS NEW WHERE NEW.rowid `)
		}
	}
	return s, nil
}

// resume does for the imported rows, table by table, what the
// suspended triggers would have done row by row, and creates the
// triggers again.
func (s *suspendedTriggers) resume(ctx context.Context, tx *sql.Tx) error {
	for _, table := range importTables {
		for _, q := range s.bulk[table] {
			if _, err := tx.ExecContext(ctx, q+`> ?`, s.last[table]); err != nil {
				return fmt.Errorf("sqlite: import: %s: %w", table, err)
			}
			err := idLists(s.low[table], func(list string) error {
				_, err := tx.ExecContext(ctx, q+`IN (SELECT value FROM json_each(?))`, list)
				return err
			})
			if err != nil {
				return fmt.Errorf("sqlite: import: %s: %w", table, err)
			}
		}
	}
	for _, def := range s.defs {
		if _, err := tx.ExecContext(ctx, def); err != nil {
			return fmt.Errorf("sqlite: import: %w", err)
		}
	}
	return nil
}
