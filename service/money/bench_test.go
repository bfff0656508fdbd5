package money_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/money/smtptest"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
	"github.com/chipdesk/chipdesk/service/store/storetest"
)

// fill writes n owners, each with a dog and a licence, straight into
// the database file at path (a store's writes would take minutes at
// these sizes): licences issued through year on the days of the year in
// turn, all expiring on January 31 next. A domain gives every owner an
// address there.
func fill(b *testing.B, path string, n int, domain string) {
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
	if domain != "" {
		email = "'owner' || i || '@" + domain + "'"
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
// each, against a local SMTP server (target: at most 60 s): the one the
// test command starts (aiosmtpd, CHIPDESK_TEST_SMTP) when it is set,
// else smtptest's in this process. It removes from the server's Maildir
// the messages it delivered. conns is the number of connections sending
// at the same time (the command's --smtp-conns), batch the e-mails one
// commit claims for each (--batch).
func BenchmarkRemind100k(b *testing.B) {
	for _, c := range []struct{ conns, batch int }{{1, 1}, {4, 1}, {4, 20}} {
		b.Run(fmt.Sprintf("conns=%d/batch=%d", c.conns, c.batch), func(b *testing.B) { benchRemind(b, 100_000, c.conns, c.batch) })
	}
}

func benchRemind(b *testing.B, n, conns, batch int) {
	addr, maildir := os.Getenv("CHIPDESK_TEST_SMTP"), os.Getenv("CHIPDESK_TEST_SMTP_MAILDIR")
	for b.Loop() {
		b.StopTimer()
		path := filepath.Join(b.TempDir(), "chipdesk.db")
		domain := fmt.Sprintf("bench%d-%d.example.org", os.Getpid(), time.Now().UnixNano())
		fill(b, path, n, domain)
		m := benchService(b, path)
		count := func() int { return -1 }
		if addr == "" {
			srv, err := smtptest.Start(nil)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { srv.Close() })
			addr, count = srv.Addr(), func() int { return len(srv.Messages()) }
		}
		var ms []money.Mailer
		for range conns {
			mailer, err := money.NewSMTP(&money.SMTPOpts{Addr: addr, From: "licensing@minneapolismn.gov", TLS: money.TLSAuto})
			if err != nil {
				b.Fatal(err)
			}
			defer mailer.Close()
			ms = append(ms, mailer)
		}
		b.StartTimer()
		res, err := m.Remind(context.Background(), &money.RemindOpts{Before: day("2027-02-01"), Mailers: ms, Batch: batch,
			RenewURL: "https://counter.example.org/renew?licence="})
		b.StopTimer()
		if maildir != "" && os.Getenv("CHIPDESK_TEST_SMTP") != "" {
			if got := smtptest.RemoveDelivered(maildir, domain); got != n {
				b.Errorf("the Maildir holds %d messages of this run, want %d", got, n)
			}
		}
		if err != nil || res.Sent != n || (count() != -1 && count() != n) {
			b.Fatalf("Remind = %+v, %v; %d messages, want %d", res, err, count(), n)
		}
		b.StartTimer()
	}
}
