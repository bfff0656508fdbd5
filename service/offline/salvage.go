package offline

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"

	"github.com/chipdesk/chipdesk/service"
)

// Salvaged tells what Salvage recovered.
type Salvaged struct {
	// Events is the number of outbox events copied, by state.
	Events map[State]int `json:"events"`
	// Lost is the number of outbox rows that could not be read.
	Lost int `json:"lost"`
}

// Salvage copies the outbox of a damaged replica file (one SQLite
// reports as malformed, or whose records cannot be read) into a new
// replica at to, with every event's id, content and state, reading what
// can be read: row by row when a whole read fails. The records are not
// copied: the new replica is pulled afresh, and its events pushed, with
// their ids, as if nothing had happened (a duplicate is answered as
// one). from is only read; to must not exist.
func Salvage(ctx context.Context, from, to string, o *Opts) (Salvaged, error) {
	got := Salvaged{Events: map[State]int{}}
	if _, err := os.Stat(to); err == nil {
		return got, service.Invalidf("to", "%s exists: salvage into a new file.", to)
	}
	if _, err := os.Stat(from); err != nil {
		return got, fmt.Errorf("offline: salvage: %w", err)
	}
	src, err := sql.Open("sqlite", "file:"+(&url.URL{Path: from}).EscapedPath()+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return got, fmt.Errorf("offline: salvage: %w", err)
	}
	defer src.Close()
	type row struct {
		seq                int64
		id, event, st, det string
		recordID           int64
	}
	var rows []row
	read := func(query string, args ...any) error {
		rs, err := src.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rs.Close()
		for rs.Next() {
			var r row
			if err := rs.Scan(&r.seq, &r.id, &r.event, &r.st, &r.det, &r.recordID); err != nil {
				return err
			}
			rows = append(rows, r)
		}
		return rs.Err()
	}
	const cols = `SELECT seq, id, event, state, detail, record_id FROM outbox`
	if err := read(cols + ` ORDER BY seq`); err != nil {
		// Row by row, over the range the table's key says it spans (or,
		// when even that cannot be read, a generous one).
		rows = rows[:0]
		var hi int64
		if src.QueryRowContext(ctx, `SELECT MAX(seq) FROM outbox`).Scan(&hi) != nil || hi <= 0 {
			hi = 1 << 16
		}
		for seq := int64(1); seq <= hi; seq++ {
			n := len(rows)
			if err := read(cols+` WHERE seq = ?`, seq); err != nil {
				rows = rows[:n]
				got.Lost++
			}
		}
	}
	dst, err := Open(ctx, to, o)
	if err != nil {
		return got, err
	}
	defer dst.Close()
	tx, err := dst.db.BeginTx(ctx, nil)
	if err != nil {
		return got, fmt.Errorf("offline: salvage: %w", err)
	}
	defer tx.Rollback()
	for _, r := range rows {
		var e service.DeviceEvent
		if err := unmarshal([]byte(r.event), &e); err != nil || e.ID != r.id {
			got.Lost++
			continue
		}
		st := State(r.st)
		if st != Queued && st != Applied && st != Rejected {
			st = Queued // pushed again: the central service answers for it
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO outbox (seq, id, event, state, detail, record_id) VALUES (?, ?, ?, ?, ?, ?)`,
			r.seq, r.id, r.event, st, r.det, r.recordID); err != nil {
			return got, fmt.Errorf("offline: salvage: %w", err)
		}
		got.Events[st]++
	}
	if err := tx.Commit(); err != nil {
		return got, fmt.Errorf("offline: salvage: %w", err)
	}
	if got.Lost > 0 && len(rows) == 0 {
		return got, errors.New("offline: salvage: no event of the outbox could be read")
	}
	return got, nil
}
