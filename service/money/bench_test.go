package money_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/bench"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/money/smtptest"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
	"github.com/chipdesk/chipdesk/service/store/storetest"
)

// fill is bench.FillReminders: n owners, each with a dog and a licence
// expiring on January 31 next, an address at domain for each.
func fill(b *testing.B, path string, n int, domain string) {
	b.Helper()
	if err := bench.FillReminders(context.Background(), path, n, domain); err != nil {
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
