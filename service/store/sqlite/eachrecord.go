package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/chipdesk/chipdesk/service"
)

var _ service.RecordStreamer = (*DB)(nil)

// EachRecord implements service.RecordStreamer: every animal's record,
// as FindRecordByAnimal builds it, in animal id order, from one read
// transaction. The animals are read once with their lookup rows, and
// the part read live (the licences) is read once
// in animal order beside them and merged, instead of one statement per
// animal: a handheld's first pull of a million records read them one by
// one. An animal without a lookup row (no chip), or marked for rebuild,
// gets the record statement, in the same transaction.
func (db *DB) EachRecord(ctx context.Context, fn func(*service.Record) error) error {
	tx, err := db.rdb.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("sqlite: records: %w", err)
	}
	defer tx.Rollback()
	yearAgo := db.today().AddMonths(-12)
	animals, err := tx.QueryContext(ctx, `SELECT a.id,
	(SELECT body FROM lookup_rows WHERE animal_id = a.id LIMIT 1),
	EXISTS (SELECT 1 FROM lookup_dirty d WHERE d.animal_id = a.id)
FROM animals a ORDER BY a.id`)
	if err != nil {
		return fmt.Errorf("sqlite: records: %w", err)
	}
	defer animals.Close()
	var live []*partCursor
	defer func() {
		for _, c := range live {
			c.rows.Close()
		}
	}()
	for _, p := range recordParts {
		if p.inRow {
			continue
		}
		c, err := db.openParts(ctx, tx, p.kind, p.cols, p.from, yearAgo)
		if err != nil {
			return err
		}
		live = append(live, c)
	}
	record := tx.StmtContext(ctx, db.rec.record)
	defer record.Close()
	row := make(cols, 0, db.rec.width)
	for animals.Next() {
		var id int64
		var body sql.NullString
		var dirty bool
		if err := animals.Scan(&id, &body, &dirty); err != nil {
			return fmt.Errorf("sqlite: records: %w", err)
		}
		var r *service.Record
		if body.Valid && !dirty {
			r = newRecord()
			found, err := db.addParts(body.String, row, r)
			if err != nil {
				return err
			}
			if !found {
				return fmt.Errorf("%w: no animal", errLookupBody)
			}
		}
		for _, c := range live {
			if err := c.add(id, r, db); err != nil {
				return err
			}
		}
		if r == nil {
			if r, err = db.runRecord(ctx, record, id, 0); err != nil {
				return err
			}
		} else {
			r = finishRecord(r, yearAgo, 0)
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := animals.Err(); err != nil {
		return fmt.Errorf("sqlite: records: %w", err)
	}
	return nil
}

// partCursor reads one live part of every record (a recordParts branch
// not in the lookup rows) in animal order, one row ahead.
type partCursor struct {
	rows *sql.Rows
	kind string
	aid  int64 // the animal of the row read ahead
	ok   bool  // a row is read ahead
	v    []any
	dest []any
	c    cols
}

// openParts runs a recordParts branch for every animal at once: its
// condition on ?2 made true, its rows in animal order.
func (db *DB) openParts(ctx context.Context, tx *sql.Tx, kind, partCols, from string, yearAgo service.Date) (*partCursor, error) {
	q := "SELECT animal_id, " + partCols + " FROM " + strings.Replace(from, "animal_id = ?2", "1", 1) + " ORDER BY animal_id"
	var args []any
	if strings.Contains(q, "?") {
		args = []any{yearAgo, nil, 0} // ?1 the window, ?3 no licence matched
	}
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: records: %w", err)
	}
	n := ncols(partCols)
	c := &partCursor{rows: rows, kind: kind, v: make([]any, n), dest: make([]any, 1+n), c: make(cols, n)}
	c.dest[0] = &c.aid
	for i := range c.v {
		c.dest[1+i] = &c.v[i]
	}
	return c, c.next()
}

func (c *partCursor) next() error {
	c.ok = c.rows.Next()
	if !c.ok {
		if err := c.rows.Err(); err != nil {
			return fmt.Errorf("sqlite: records: %w", err)
		}
		return nil
	}
	if err := c.rows.Scan(c.dest...); err != nil {
		return fmt.Errorf("sqlite: records: %w", err)
	}
	return nil
}

// add adds the rows of animal id to r (nil: read past them, the record
// statement reads them itself).
func (c *partCursor) add(id int64, r *service.Record, db *DB) error {
	for c.ok && c.aid <= id {
		if c.aid == id && r != nil {
			for i, x := range c.v {
				c.c[i] = valOf(x)
			}
			db.addPart(r, c.kind, c.c)
		}
		if err := c.next(); err != nil {
			return err
		}
	}
	return nil
}
