package main

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/chipdesk/chipdesk/service"
)

// FuzzMigrateValues: a date, an instant and a boolean written the SQLite
// way (toSQLite) and read back the PostgreSQL way (toPostgres) come out
// as they went in; any text in a date or time column is an error, never
// a panic.
func FuzzMigrateValues(f *testing.F) {
	f.Add(int32(739690), int64(1773576000123456789), true, "2026-03-15")
	f.Add(int32(1), int64(0), false, "")
	f.Add(int32(3652059), int64(-1), true, "9999-12-31T23:59:59.999999999Z")
	f.Fuzz(func(t *testing.T, day int32, nanos int64, b bool, text string) {
		if d := service.Date(day); d >= 1 && d <= service.NewDate(9999, 12, 31) {
			in := pgtype.Date{Time: d.Time(time.UTC), Valid: true}.Time
			got, err := toPostgres(toSQLite(in, "date"), "date")
			if err != nil {
				t.Fatalf("toPostgres(toSQLite(%v)) error %v", d, err)
			}
			if pd, ok := got.(pgtype.Date); !ok || service.DateOf(pd.Time) != d {
				t.Fatalf("date %v came back %v", d, got)
			}
		}
		ts := time.Unix(0, nanos).UTC().Truncate(time.Microsecond)
		got, err := toPostgres(toSQLite(ts, "timestamp with time zone"), "timestamp with time zone")
		if err != nil {
			t.Fatalf("toPostgres(toSQLite(%v)) error %v", ts, err)
		}
		if gt, ok := got.(time.Time); !ok || !gt.Equal(ts) {
			t.Fatalf("instant %v came back %v", ts, got)
		}
		if got, err := toPostgres(toSQLite(b, "boolean"), "boolean"); err != nil || got != b {
			t.Fatalf("bool %v came back %v, %v", b, got, err)
		}
		for _, typ := range []string{"date", "timestamp with time zone", "boolean", "text", "bigint"} {
			toPostgres(text, typ)
			toPostgres([]byte(text), typ)
		}
	})
}
