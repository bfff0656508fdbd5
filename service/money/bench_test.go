package money_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/money/smtptest"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
	"github.com/chipdesk/chipdesk/service/store/storetest"
)

// fill writes n owners, each with a dog and a licence, straight into
// the database file at path (a store's writes would take minutes at
// these sizes): licences issued through year on the days of the year in
// turn, all expiring on January 31 next. withEmail gives every owner an
// address.
func fill(b *testing.B, path string, n int, withEmail bool) {
	b.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, path, nil) // makes the schema
	if err != nil {
		b.Fatal(err)
	}
	st.Close()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(OFF)&_pragma=cache_size(-262144)")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	email := "''"
	if withEmail {
		email = "'owner' || i || '@example.org'"
	}
	const stamp = "'2026-01-01T00:00:00.000000000Z'"
	for _, q := range []string{
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		INSERT INTO owners (id, name, address, city, email, created_at, updated_at)
		SELECT i, 'Owner ' || i, i || ' Lake St', 'Minneapolis', ` + email + `, ` + stamp + `, ` + stamp + ` FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		INSERT INTO animals (id, owner_id, name, species, altered, created_at, updated_at)
		SELECT i, i, 'Rex', CASE i % 3 WHEN 0 THEN 'cat' ELSE 'dog' END, i % 2, ` + stamp + `, ` + stamp + ` FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		INSERT INTO licences (id, animal_id, kind, jurisdiction, year, tag_number, issued_on, expires_on, status, fee_cents,
			fee_code, issued_by, created_at)
		SELECT i, i, 'licence', 'minneapolis', 2026, i, date('2026-01-01', '+' || (i % 365) || ' days'), '2027-01-31', 'active',
			CASE i % 2 WHEN 1 THEN 1500 ELSE 3000 END, CASE i % 2 WHEN 1 THEN 'altered' ELSE 'unaltered' END, 'office', ` + stamp + ` FROM n`,
	} {
		if _, err := db.ExecContext(ctx, q, n); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := db.ExecContext(ctx, `ANALYZE`); err != nil {
		b.Fatal(err)
	}
}

func benchService(b *testing.B, path string) *money.Service {
	b.Helper()
	st, err := sqlite.Open(context.Background(), path, &sqlite.Opts{Now: storetest.NewClock(storetest.Start).Now})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	rs, err := rules.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	m, err := money.New(&money.Opts{Store: st, Rules: rs})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkRemind100k is a reminder run for 100,000 licences, one owner
// each, against an SMTP server on loopback (target: at most 60 s).
func BenchmarkRemind100k(b *testing.B) {
	for _, batch := range []int{1, 100} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) { benchRemind(b, 100_000, batch) })
	}
}

func benchRemind(b *testing.B, n, batch int) {
	for b.Loop() {
		b.StopTimer()
		path := filepath.Join(b.TempDir(), "chipdesk.db")
		fill(b, path, n, true)
		m := benchService(b, path)
		srv, err := smtptest.Start(nil)
		if err != nil {
			b.Fatal(err)
		}
		mailer, err := money.NewSMTP(&money.SMTPOpts{Addr: srv.Addr(), From: "licensing@minneapolismn.gov", TLS: money.TLSNone})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := m.Remind(context.Background(), &money.RemindOpts{Before: day("2027-02-01"), Mailer: mailer, Batch: batch,
			RenewURL: "https://counter.example.org/renew?licence="})
		b.StopTimer()
		if err != nil || res.Sent != n || len(srv.Messages()) != n {
			b.Fatalf("Remind = %+v, %v; %d messages, want %d", res, err, len(srv.Messages()), n)
		}
		mailer.Close()
		srv.Close()
		b.StartTimer()
	}
}

// BenchmarkSalesReport1M is the monthly licence report over a year of
// 1,000,000 licences (target: at most 1 s).
func BenchmarkSalesReport1M(b *testing.B) {
	path := filepath.Join(b.TempDir(), "chipdesk.db")
	fill(b, path, 1_000_000, false)
	m := benchService(b, path)
	ctx := context.Background()
	for b.Loop() {
		r, err := m.Sales(ctx, day("2026-01-01"), day("2026-12-31"))
		if err != nil || r.Count != 1_000_000 {
			b.Fatalf("Sales = %v, %v", r, err)
		}
	}
}
