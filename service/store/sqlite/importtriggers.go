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
// an import dropped (suspendTriggers), each as its INSERT and the values
// it inserts for a row NEW, and the rows they are owed: those past the
// table's last rowid before the import, and those the import stored
// below it (seen), ids of their own filling gaps.
type suspendedTriggers struct {
	defs []string           // CREATE TRIGGER statements
	rows []rowInsert        // their INSERTs, in the order found
	last map[string]int64   // per table: the last rowid before the import
	low  map[string][]int64 // per table: ids stored at or below last
}

// rowInsert is a per-row trigger's statement: INSERT head VALUES (exprs)
// for each row NEW of table.
type rowInsert struct{ table, head, exprs string }

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
// also flushed their pending terms at every statement), keeping each
// one's INSERT ... VALUES, which resume runs once as an INSERT ... SELECT
// over the imported rows with the alias NEW. A trigger of another shape
// keeps firing. Readers keep the schema of their snapshot; a rollback
// restores the triggers.
func suspendTriggers(ctx context.Context, tx *sql.Tx) (*suspendedTriggers, error) {
	s := &suspendedTriggers{last: map[string]int64{}, low: map[string][]int64{}}
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
			s.rows = append(s.rows, rowInsert{table: table, head: m[1], exprs: m[2]})
		}
	}
	return s, nil
}

// resume does for the imported rows what the suspended triggers would
// have done row by row, and creates the triggers again. The triggers
// that insert into one table OR IGNORE or OR REPLACE (the marks and the
// change sequence, of several tables each) run as one statement over
// the UNION of their rows: a row that several would insert is inserted
// once (an animal's chips, licences and vaccinations are one change),
// in order of its values.
func (s *suspendedTriggers) resume(ctx context.Context, tx *sql.Tx) error {
	var heads []string
	byHead := map[string][]rowInsert{}
	for _, r := range s.rows {
		if _, ok := byHead[r.head]; !ok {
			heads = append(heads, r.head)
		}
		byHead[r.head] = append(byHead[r.head], r)
	}
	run := func(head string, rs []rowInsert, union string) error {
		var sel []string
		var args []any
		for _, r := range rs {
			from := ` FROM "` + r.table + `" AS NEW WHERE NEW.rowid `
			sel = append(sel, `SELECT `+r.exprs+from+`> ?`, `SELECT `+r.exprs+from+`IN (SELECT value FROM json_each(?))`)
			args = append(args, s.last[r.table], idList(s.low[r.table]))
		}
		if _, err := tx.ExecContext(ctx, head+" "+strings.Join(sel, union), args...); err != nil {
			return fmt.Errorf("sqlite: import: %s: %w", rs[0].table, err)
		}
		return nil
	}
	for _, head := range heads {
		rs := byHead[head]
		if h := strings.ToUpper(head); strings.HasPrefix(h, "INSERT OR IGNORE ") || strings.HasPrefix(h, "INSERT OR REPLACE ") {
			if err := run(head, rs, " UNION "); err != nil {
				return err
			}
			continue
		}
		for _, r := range rs {
			if err := run(head, []rowInsert{r}, " UNION ALL "); err != nil {
				return err
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
