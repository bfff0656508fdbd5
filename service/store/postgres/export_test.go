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

// ChecksForTest lists the index and constraint definitions of table
// (without the schema, which differs between test stores), in
// a stable order, as the catalog holds them.
func ChecksForTest(ctx context.Context, db *DB, table string) ([]string, error) {
	rows, err := db.pool.Query(ctx, `SELECT regexp_replace(pg_get_indexdef(indexrelid), ' ON [^ ]+\.', ' ON ') FROM pg_index WHERE indrelid = $1::regclass
		UNION ALL SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = $1::regclass
		ORDER BY 1`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
