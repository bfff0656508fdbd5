package sqlite

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/service"
)

// cursorPrefix marks this store's cursors: the sequence numbers of
// sync_changes, which only this file's store hands out.
const cursorPrefix = "sqlite:"

// ChangeCursor implements service.ChangeFeed: one past the highest
// number in sync_changes. SQLite commits one writer at a time, so a
// change that commits later takes a higher number.
func (db *DB) ChangeCursor(ctx context.Context) (string, error) {
	var next int64
	if err := db.rdb.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM sync_changes`).Scan(&next); err != nil {
		return "", fmt.Errorf("sqlite: change cursor: %w", err)
	}
	return cursorPrefix + strconv.FormatInt(next, 10), nil
}

// ChangedAnimals implements service.ChangeFeed.
func (db *DB) ChangedAnimals(ctx context.Context, since string, fn func(int64) error) error {
	n, err := strconv.ParseInt(strings.TrimPrefix(since, cursorPrefix), 10, 64)
	if !strings.HasPrefix(since, cursorPrefix) || err != nil || n < 1 {
		return service.Invalidf("since", "The change cursor %q is not one of this store's.", since)
	}
	var last int64
	if err := db.rdb.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM sync_changes`).Scan(&last); err != nil {
		return fmt.Errorf("sqlite: changes: %w", err)
	}
	if n > last {
		return service.Invalidf("since", "The change cursor %q is ahead of this store (restored from a backup?).", since)
	}
	rows, err := db.rdb.QueryContext(ctx, `SELECT animal_id FROM sync_changes WHERE seq >= ?`, n)
	if err != nil {
		return fmt.Errorf("sqlite: changes: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fmt.Errorf("sqlite: changes: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sqlite: changes: %w", err)
	}
	for _, id := range ids {
		if err := fn(id); err != nil {
			return err
		}
	}
	return nil
}
