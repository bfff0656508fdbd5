package money_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"mime/quotedprintable"
	"net/mail"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/money/smtptest"
)

// owners stores n owners with an e-mail address at domain, one dog
// each licensed until 2027-01-31, and one owner without an address.
func (e *env) owners(t testing.TB, n int, domain string) {
	t.Helper()
	ctx := context.Background()
	for i := range n + 1 {
		o := &service.Owner{Name: fmt.Sprintf("Owner %d", i), Address: fmt.Sprintf("%d Lake St", i+1), City: "Minneapolis", State: "MN", Postcode: "55401"}
		if i < n {
			o.Email = fmt.Sprintf("owner%d@%s", i, domain)
		}
		if err := e.st.CreateOwner(ctx, o); err != nil {
			t.Fatal(err)
		}
		a := &service.Animal{OwnerID: o.ID, Name: "Rex", Species: service.Dog, Altered: true}
		if err := e.st.CreateAnimal(ctx, a); err != nil {
			t.Fatal(err)
		}
		l := &service.Licence{AnimalID: a.ID, Jurisdiction: "minneapolis", IssuedOn: day("2026-03-01"), ExpiresOn: day("2027-01-31"), FeeCents: 1500}
		if err := e.st.CreateLicence(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
}

func mailerFor(t testing.TB, srv interface{ Addr() string }, mode string, ca []byte) *money.SMTP {
	t.Helper()
	cfg := &tls.Config{ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12}
	if ca != nil {
		cfg.RootCAs = x509.NewCertPool()
		cfg.RootCAs.AppendCertsFromPEM(ca)
	}
	m, err := money.NewSMTP(&money.SMTPOpts{Addr: srv.Addr(), From: "licensing@minneapolismn.gov", TLS: mode, TLSConfig: cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// startSMTP starts smtptest's server with o until the test ends.
func startSMTP(t testing.TB, o *smtptest.Opts) *smtptest.Server {
	t.Helper()
	srv, err := smtptest.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// perRecipient counts the messages to each address.
func perRecipient(msgs []smtptest.Message) map[string]int {
	n := map[string]int{}
	for _, m := range msgs {
		for _, to := range m.To {
			n[to]++
		}
	}
	return n
}

// TestRemindSTARTTLS: a server that offers STARTTLS gets every message
// encrypted; each owner with an address gets one e-mail carrying the
// tag number and the renewal link, the owner without one a letter; a
// second run sends nothing.
func TestRemindSTARTTLS(t *testing.T) {
	t.Parallel()
	srv := startSMTP(t, &smtptest.Opts{STARTTLS: true})
	e := open(t)
	e.owners(t, 5, "example.org")
	ctx := context.Background()
	var letters bytes.Buffer
	o := &money.RemindOpts{Before: day("2027-02-01"), Mailer: mailerFor(t, srv, money.TLSAuto, srv.CAPEM()),
		Letters: &letters, RenewURL: "https://counter.example.org/renew?licence=", City: "City of Minneapolis"}
	res, err := e.m.Remind(ctx, o)
	must(t, "Remind", err)
	if res.Sent != 5 || res.Letters != 1 || res.Queued != 6 {
		t.Fatalf("Remind = %+v, want 5 sent, 1 letter, 6 queued", res)
	}
	msgs := srv.Messages()
	if len(msgs) != 5 {
		t.Fatalf("server got %d messages, want 5", len(msgs))
	}
	for _, m := range msgs {
		if !m.TLS {
			t.Errorf("message to %v came without TLS though the server offered STARTTLS", m.To)
		}
		pm, err := mail.ReadMessage(bytes.NewReader(m.Data))
		must(t, "ReadMessage", err)
		var body bytes.Buffer
		body.ReadFrom(pm.Body)
		if !strings.Contains(body.String(), "minneapolis 2026 #") || !strings.Contains(body.String(), "https://counter.example.org/renew?licence=") {
			t.Errorf("message lacks the tag or the renewal link:\n%s", body.String())
		}
		if pm.Header.Get("Message-Id") == "" {
			t.Errorf("message has no Message-ID")
		}
	}
	for to, n := range perRecipient(msgs) {
		if n != 1 {
			t.Errorf("%s got %d messages, want 1", to, n)
		}
	}
	page := letters.String()
	if strings.Count(page, `<section class="letter">`) != 1 || !strings.Contains(page, "@media print") || !strings.Contains(page, "6 Lake St") {
		t.Errorf("letters:\n%s", page)
	}
	res, err = e.m.Remind(ctx, o)
	must(t, "Remind(again)", err)
	if res.Sent != 0 || res.Letters != 0 || len(srv.Messages()) != 5 {
		t.Fatalf("second run = %+v, %d messages; want none sent", res, len(srv.Messages()))
	}
}

// TestRemindTLSRequired: a server without STARTTLS (a local relay)
// takes plain SMTP in auto mode; when TLS is required nothing is sent
// and the reminders stay queued for a run that can.
func TestRemindTLSRequired(t *testing.T) {
	t.Parallel()
	srv := startSMTP(t, nil)
	e := open(t)
	e.owners(t, 3, "example.org")
	ctx := context.Background()
	_, err := e.m.Remind(ctx, &money.RemindOpts{Before: day("2027-02-01"), Mailer: mailerFor(t, srv, money.TLSRequired, nil)})
	if !errors.Is(err, money.ErrNotSent) {
		t.Fatalf("Remind with TLS required on a plain server: %v, want not sent", err)
	}
	if n := len(srv.Messages()); n != 0 {
		t.Fatalf("%d messages went without TLS", n)
	}
	res, err := e.m.Remind(ctx, &money.RemindOpts{Before: day("2027-02-01"), Mailer: mailerFor(t, srv, money.TLSAuto, nil)})
	must(t, "Remind(auto)", err)
	if res.Sent != 3 || res.InDoubt != 0 || len(srv.Messages()) != 3 || srv.Messages()[0].TLS {
		t.Fatalf("Remind(auto) = %+v, %d messages", res, len(srv.Messages()))
	}
}

// crashAfter sends through m, and after n messages the process "dies":
// the n-th message reached the server but the run never records it.
type crashAfter struct {
	m    money.Mailer
	n    int
	sent int
}

var errCrash = errors.New("process killed")

func (c *crashAfter) Send(ctx context.Context, m *money.Mail) error {
	if err := c.m.Send(ctx, m); err != nil {
		return err
	}
	if c.sent++; c.sent == c.n {
		return errCrash
	}
	return nil
}

// TestRemindCrash: a run killed after the server took a message and
// before it was recorded, then a second run from the same database:
// every owner has exactly one message.
func TestRemindCrash(t *testing.T) {
	t.Parallel()
	for _, batch := range []int{1, 5} {
		t.Run(fmt.Sprintf("batch=%d", batch), func(t *testing.T) {
			t.Parallel()
			srv := startSMTP(t, nil)
			e := open(t)
			e.owners(t, 10, "example.org")
			ctx := context.Background()
			_, err := e.m.Remind(ctx, &money.RemindOpts{Before: day("2027-02-01"), Batch: batch,
				Mailer: &crashAfter{m: mailerFor(t, srv, money.TLSAuto, nil), n: 4}})
			if !errors.Is(err, errCrash) {
				t.Fatalf("first run: %v, want the crash", err)
			}
			e.reopen(t)
			res, err := e.m.Remind(ctx, &money.RemindOpts{Before: day("2027-02-01"), Batch: batch, Mailer: mailerFor(t, srv, money.TLSAuto, nil)})
			must(t, "second run", err)
			if res.Sent != 6 || res.InDoubt != 1 {
				t.Fatalf("second run = %+v, want 6 sent and the one the crash left in doubt", res)
			}
			got := perRecipient(srv.Messages())
			if len(got) != 10 {
				t.Fatalf("%d owners got mail, want 10", len(got))
			}
			for to, n := range got {
				if n != 1 {
					t.Errorf("%s got %d messages, want 1", to, n)
				}
			}
		})
	}
}

// TestRemindDebianSMTP runs reminders twice, with a crash between,
// against the SMTP server the test command starts (aiosmtpd from
// Debian's packages, plain SMTP as a relay on the same host, messages
// into a Maildir): one message per owner.
func TestRemindDebianSMTP(t *testing.T) {
	addr, dir := os.Getenv("CHIPDESK_TEST_SMTP"), os.Getenv("CHIPDESK_TEST_SMTP_MAILDIR")
	if addr == "" || dir == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CHIPDESK_TEST_SMTP and CHIPDESK_TEST_SMTP_MAILDIR are not set; test.sh starts aiosmtpd")
		}
		t.Skip("no test SMTP server: set CHIPDESK_TEST_SMTP=HOST:PORT and CHIPDESK_TEST_SMTP_MAILDIR (test.sh starts aiosmtpd)")
	}
	srv := addrOnly(addr)
	domain := fmt.Sprintf("run%d-%d.example.org", os.Getpid(), time.Now().UnixNano())
	t.Cleanup(func() { smtptest.RemoveDelivered(dir, domain) })
	e := open(t)
	e.owners(t, 8, domain)
	ctx := context.Background()
	_, err := e.m.Remind(ctx, &money.RemindOpts{Before: day("2027-02-01"), Mailer: &crashAfter{m: mailerFor(t, srv, money.TLSAuto, nil), n: 3}})
	if !errors.Is(err, errCrash) {
		t.Fatalf("first run: %v, want the crash", err)
	}
	e.reopen(t)
	res, err := e.m.Remind(ctx, &money.RemindOpts{Before: day("2027-02-01"), Mailer: mailerFor(t, srv, money.TLSAuto, nil)})
	must(t, "second run", err)
	res2, err := e.m.Remind(ctx, &money.RemindOpts{Before: day("2027-02-01"), Mailer: mailerFor(t, srv, money.TLSAuto, nil)})
	must(t, "third run", err)
	if res.Sent != 5 || res2.Sent != 0 {
		t.Fatalf("runs after the crash sent %d and %d, want 5 and 0", res.Sent, res2.Sent)
	}
	got := map[string]int{}
	for to, paths := range smtptest.Delivered(dir, domain) {
		got[to] = len(paths)
	}
	if len(got) != 8 {
		t.Fatalf("the Maildir has mail for %d of this run's 8 owners: %v", len(got), got)
	}
	for to, n := range got {
		if n != 1 {
			t.Errorf("%s got %d messages, want 1", to, n)
		}
	}
}

type addrOnly string

func (a addrOnly) Addr() string { return string(a) }

// TestRemindRefusedRecipient: an address the server refuses for good
// fails alone; the messages after it go on the same connection.
func TestRemindRefusedRecipient(t *testing.T) {
	t.Parallel()
	srv := startSMTP(t, &smtptest.Opts{Refuse: []string{"owner1@example.org"}})
	e := open(t)
	e.owners(t, 4, "example.org")
	res, err := e.m.Remind(context.Background(), &money.RemindOpts{Before: day("2027-02-01"), Mailer: mailerFor(t, srv, money.TLSAuto, nil)})
	must(t, "Remind", err)
	got := perRecipient(srv.Messages())
	if res.Sent != 3 || res.Failed != 1 || len(got) != 3 || got["owner1@example.org"] != 0 {
		t.Fatalf("Remind = %+v, messages %v; want 3 sent and owner1 failed", res, got)
	}
	failed, err := e.st.FindReminders(context.Background(), "before 2027-02-01", service.ReminderFailed)
	must(t, "FindReminders", err)
	if len(failed) != 1 || failed[0].Email != "owner1@example.org" || failed[0].Error == "" {
		t.Fatalf("failed reminders = %+v", failed)
	}
}

// TestRemindCrashParallel: three connections at once, one of them
// "killed" after its second message; the run stops, and a second run
// sends the rest: every owner has exactly one message, and only the
// one message the crash left unrecorded is in doubt.
func TestRemindCrashParallel(t *testing.T) {
	t.Parallel()
	srv := startSMTP(t, nil)
	e := open(t)
	e.owners(t, 30, "example.org")
	ctx := context.Background()
	_, err := e.m.Remind(ctx, &money.RemindOpts{Before: day("2027-02-01"), Mailers: []money.Mailer{
		mailerFor(t, srv, money.TLSAuto, nil), &crashAfter{m: mailerFor(t, srv, money.TLSAuto, nil), n: 2},
		mailerFor(t, srv, money.TLSAuto, nil)}})
	if !errors.Is(err, errCrash) {
		t.Fatalf("first run: %v, want the crash", err)
	}
	first := len(srv.Messages())
	e.reopen(t)
	res, err := e.m.Remind(ctx, &money.RemindOpts{Before: day("2027-02-01"), Mailers: []money.Mailer{
		mailerFor(t, srv, money.TLSAuto, nil), mailerFor(t, srv, money.TLSAuto, nil)}})
	must(t, "second run", err)
	if res.InDoubt != 1 || first+res.Sent != 30 {
		t.Fatalf("first run sent %d, second %+v; want 30 in all and 1 in doubt", first, res)
	}
	got := perRecipient(srv.Messages())
	if len(got) != 30 {
		t.Fatalf("%d owners got mail, want 30", len(got))
	}
	for to, n := range got {
		if n != 1 {
			t.Errorf("%s got %d messages, want 1", to, n)
		}
	}
}

// TestRemindPermits_Chanhassen_5_18c: with Permits, the holders of
// permits expiring in the window get one reminder each through the same
// outbox, a kennel's saying its renewal application is due by December 1
// (5-18(c)); a permit renewed already is not reminded, one whose holder
// is not on file is counted for the clerk; an off-leash permit reaches
// its dog's owner. A crash between two runs, and a third run: one
// message each.
func TestRemindPermits_Chanhassen_5_18c(t *testing.T) {
	t.Parallel()
	srv := startSMTP(t, nil)
	e := open(t)
	ctx := context.Background()
	owner := func(name, email string) *service.Owner {
		o := &service.Owner{Name: name, Address: "9000 Pioneer Trail", City: "Chanhassen", State: "MN", Email: email}
		must(t, "CreateOwner", e.st.CreateOwner(ctx, o))
		return o
	}
	permit := func(p *service.Permit) *service.Permit {
		if p.State == "" {
			p.State = service.PermitGranted
		}
		p.IssuedOn = day("2026-03-10")
		must(t, "CreatePermit", e.st.CreatePermit(ctx, p))
		return p
	}
	kari, ola, eva := owner("Kari Berg", "kari@example.org"), owner("Ola Nord", "ola@example.org"), owner("Eva Sund", "")
	permit(&service.Permit{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Kari Berg", OwnerID: kari.ID,
		ExpiresOn: day("2026-12-31"), RenewalDue: day("2026-12-01")})
	old := permit(&service.Permit{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Ola Nord", OwnerID: ola.ID,
		ExpiresOn: day("2026-12-31"), RenewalDue: day("2026-12-01")})
	permit(&service.Permit{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Ola Nord", OwnerID: ola.ID,
		ExpiresOn: day("2027-12-31"), RenewalDue: day("2027-12-01"), Renews: old.ID, State: service.PermitPending})
	permit(&service.Permit{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "commercial", Holder: "Paws Inn LLC",
		ExpiresOn: day("2026-12-31"), RenewalDue: day("2026-12-01")})
	dog := e.animal(t, &service.Animal{Species: service.Dog, Altered: true})
	permit(&service.Permit{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "resident", AnimalID: dog.ID, ExpiresOn: day("2027-01-31")})
	permit(&service.Permit{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: "Eva Sund", OwnerID: eva.ID,
		ExpiresOn: day("2026-12-31"), RenewalDue: day("2026-12-01")})
	// A stable (5-105(a)): registered for 2026, so its registration is
	// due by June 1, 2027, after this window; a second one due by June 1,
	// 2026 would be (the window has no start), and is Kari's too.
	permit(&service.Permit{Kind: service.PermitStable, Jurisdiction: "chanhassen", Holder: "Kari Berg", OwnerID: kari.ID, RenewalDue: day("2027-06-01")})
	permit(&service.Permit{Kind: service.PermitStable, Jurisdiction: "chanhassen", Holder: "Kari Berg", OwnerID: kari.ID, RenewalDue: day("2026-06-01")})
	var letters bytes.Buffer
	o := &money.RemindOpts{Before: day("2027-02-01"), Permits: true, Letters: &letters,
		Mailer: &crashAfter{m: mailerFor(t, srv, money.TLSAuto, nil), n: 1}}
	_, err := e.m.Remind(ctx, o)
	if !errors.Is(err, errCrash) {
		t.Fatalf("first run: %v, want the crash", err)
	}
	e.reopen(t)
	o.Mailer = mailerFor(t, srv, money.TLSAuto, nil)
	res, err := e.m.Remind(ctx, o)
	must(t, "second run", err)
	if res.PermitsQueued != 0 || res.NoHolder != 1 || res.Sent != 1 || res.InDoubt != 1 || res.Letters != 1 {
		t.Fatalf("second run = %+v; want 1 sent, 1 in doubt, 1 letter, the LLC without a holder on file", res)
	}
	if res, err = e.m.Remind(ctx, o); err != nil || res.Sent != 0 || res.Letters != 0 {
		t.Fatalf("third run = %+v, %v; want nothing", res, err)
	}
	got := perRecipient(srv.Messages())
	if len(got) != 2 || got["kari@example.org"] != 1 || got["ada@example.org"] != 1 {
		t.Fatalf("messages %v; want one to Kari (kennel) and one to Ada (off-leash), none to Ola (renewed)", got)
	}
	for _, m := range srv.Messages() {
		pm, err := mail.ReadMessage(bytes.NewReader(m.Data))
		must(t, "ReadMessage", err)
		text, err := io.ReadAll(quotedprintable.NewReader(pm.Body))
		must(t, "quoted-printable", err)
		body := string(text)
		if m.To[0] == "kari@example.org" && (!strings.Contains(body, "due by 2026-12-01 (5-18(c))") || !strings.Contains(body, "Chanhassen kennel licence") ||
			!strings.Contains(body, "registration is due by 2026-06-01 (5-105(a))") || strings.Contains(body, "2027-06-01")) {
			t.Errorf("Kari's reminder lacks the kennel's renewal (5-18(c)) or the stable's registration due (5-105(a)), or names the one not due:\n%s", body)
		}
	}
	if page := letters.String(); strings.Count(page, `<section class="letter">`) != 1 || !strings.Contains(page, "Eva Sund") || !strings.Contains(page, "5-18(c)") {
		t.Errorf("letters:\n%s", page)
	}
}

// TestRemindLettersSavedBeforeRecorded: letters whose batch could not be
// saved are given back and printed by the next run; once saved they are
// recorded and not printed again.
func TestRemindLettersSavedBeforeRecorded(t *testing.T) {
	t.Parallel()
	e := open(t)
	e.owners(t, 0, "example.org") // one owner, no address
	ctx := context.Background()
	var page bytes.Buffer
	full := errors.New("disk full")
	o := &money.RemindOpts{Before: day("2027-02-01"), Letters: &page, SaveLetters: func() error { return full }}
	if _, err := e.m.Remind(ctx, o); !errors.Is(err, full) {
		t.Fatalf("Remind with the save failing: %v, want it", err)
	}
	saved := 0
	o.SaveLetters = func() error { saved++; return nil }
	res, err := e.m.Remind(ctx, o)
	must(t, "Remind", err)
	if res.Letters != 1 || saved != 1 {
		t.Fatalf("second run = %+v, saved %d times; want the letter printed and saved once", res, saved)
	}
	if res, err = e.m.Remind(ctx, o); err != nil || res.Letters != 0 || saved != 1 {
		t.Fatalf("third run = %+v, %v; want nothing printed", res, err)
	}
}
