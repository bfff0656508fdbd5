package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/service"
)

// cursorPrefix marks this store's cursors: a snapshot of this cluster's
// transactions (txid_current_snapshot(), "xmin:xmax:running,...").
const cursorPrefix = "postgres:"

// ChangeCursor implements service.ChangeFeed: the snapshot of the
// transactions now. A change the snapshot does not see (made by a
// transaction running now or started later) is sent by the next pull,
// whatever order the transactions commit in; one it sees, not again.
func (db *DB) ChangeCursor(ctx context.Context) (string, error) {
	var snap string
	if err := db.pool.QueryRow(ctx, `SELECT txid_current_snapshot()::text`).Scan(&snap); err != nil {
		return "", fmt.Errorf("postgres: change cursor: %w", err)
	}
	return cursorPrefix + snap, nil
}

// ChangedAnimals implements service.ChangeFeed: the animals whose last
// change the cursor's snapshot did not see.
func (db *DB) ChangedAnimals(ctx context.Context, since string, fn func(int64) error) error {
	snap, ok := strings.CutPrefix(since, cursorPrefix)
	parts := strings.SplitN(snap, ":", 3)
	bad := service.Invalidf("since", "The change cursor %q is not one of this store's.", since)
	if !ok || len(parts) != 3 {
		return bad
	}
	xmin, err1 := strconv.ParseInt(parts[0], 10, 64)
	xmax, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil || xmin < 1 || xmax < xmin {
		return bad
	}
	for _, x := range strings.Split(parts[2], ",") {
		if n, err := strconv.ParseInt(x, 10, 64); x != "" && (err != nil || n < xmin || n >= xmax) {
			return bad
		}
	}
	var next int64
	if err := db.pool.QueryRow(ctx, `SELECT txid_snapshot_xmax(txid_current_snapshot())`).Scan(&next); err != nil {
		return fmt.Errorf("postgres: changes: %w", err)
	}
	if xmax > next {
		return service.Invalidf("since", "The change cursor %q is ahead of this database (restored from a backup?).", since)
	}
	rows, err := db.pool.Query(ctx, `SELECT animal_id FROM sync_changes
		WHERE xid >= $1 AND NOT txid_visible_in_snapshot(xid, $2::text::txid_snapshot)`, xmin, snap)
	if err != nil {
		return fmt.Errorf("postgres: changes: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fmt.Errorf("postgres: changes: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("postgres: changes: %w", err)
	}
	for _, id := range ids {
		if err := fn(id); err != nil {
			return err
		}
	}
	return nil
}
