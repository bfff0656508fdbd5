package postgres

import (
	"context"

	"github.com/chipdesk/chipdesk/service"
)

// FullRecordForTest reads animal id's record with the full statement,
// as a lookup does without a lookup row.
func FullRecordForTest(ctx context.Context, db *DB, id int64) (*service.Record, error) {
	r, err := db.queryFull(ctx, recordByAnimalSQL, []any{pdate(db.today().AddMonths(-12)), id})
	if err != nil {
		return nil, err
	}
	utcRecord(r)
	r.Sort()
	return r, nil
}
