package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/money/smtptest"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// reminderDB makes a database of n owners with an e-mail address and
// one without, each with a dog licensed until 2027-01-31.
func reminderDB(t *testing.T, n int) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "chipdesk.db")
	st, err := sqlite.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := range n + 1 {
		o := &service.Owner{Name: fmt.Sprintf("Owner %d", i), Address: "1 Lake St", City: "Minneapolis"}
		if i < n {
			o.Email = fmt.Sprintf("owner%d@example.org", i)
		}
		a := &service.Animal{Name: "Rex", Species: service.Dog, Altered: true}
		l := &service.Licence{Jurisdiction: "minneapolis", IssuedOn: service.MustDate("2026-03-01"), ExpiresOn: service.MustDate("2027-01-31"), FeeCents: 1500}
		if err := st.CreateOwner(ctx, o); err != nil {
			t.Fatal(err)
		}
		a.OwnerID = o.ID
		if err := st.CreateAnimal(ctx, a); err != nil {
			t.Fatal(err)
		}
		l.AnimalID = a.ID
		if err := st.CreateLicence(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &cmdline.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Now: time.Now}
	code := run(context.Background(), e, args)
	return code, out.String(), errb.String()
}

// TestReminders: "chipdesk reminders --db PATH --expiring-before DATE
// --smtp HOST:PORT --from ADDR" sends one message per owner with an
// address and says how many; a second run sends none. Against a
// server without STARTTLS it sends plain SMTP, unless --smtp-tls
// required, which sends nothing.
func TestReminders(t *testing.T) {
	t.Parallel()
	srv, err := smtptest.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	db := reminderDB(t, 3)
	args := []string{"reminders", "--db", db, "--expiring-before", "2027-02-01", "--smtp", srv.Addr(), "--from", "licensing@minneapolismn.gov"}
	code, out, stderr := runCmd(t, append(args, "--smtp-tls", "required")...)
	if code == 0 || len(srv.Messages()) != 0 {
		t.Fatalf("--smtp-tls required on a plain server = %d %q %q, %d messages; want a failure and none sent", code, out, stderr, len(srv.Messages()))
	}
	letters := filepath.Join(t.TempDir(), "letters.html")
	code, out, stderr = runCmd(t, append(args, "--letters", letters)...)
	if code != 0 || !strings.HasPrefix(out, "sent 3 e-mail reminders, 1 letters") || len(srv.Messages()) != 3 {
		t.Fatalf("first run = %d %q %q, %d messages; want sent 3", code, out, stderr, len(srv.Messages()))
	}
	for _, m := range srv.Messages() {
		if m.TLS {
			t.Fatalf("a server without STARTTLS got a message over TLS: %+v", m)
		}
	}
	if b, err := os.ReadFile(letters); err != nil || strings.Count(string(b), `class="letter"`) != 1 {
		t.Fatalf("letters file: %v\n%s", err, b)
	}
	code, out, _ = runCmd(t, args...)
	if code != 0 || !strings.HasPrefix(out, "sent 0 ") || len(srv.Messages()) != 3 {
		t.Fatalf("second run = %d %q, %d messages; want sent 0", code, out, len(srv.Messages()))
	}
}

// TestRemindersSTARTTLS: a server offering STARTTLS gets the messages
// over TLS, its certificate trusted through --smtp-ca.
func TestRemindersSTARTTLS(t *testing.T) {
	t.Parallel()
	srv, err := smtptest.Start(&smtptest.Opts{STARTTLS: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, srv.CAPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	db := reminderDB(t, 2)
	code, out, stderr := runCmd(t, "reminders", "--db", db, "--expiring-before", "2027-02-01", "--smtp", srv.Addr(),
		"--from", "licensing@minneapolismn.gov", "--smtp-tls", "required", "--smtp-ca", ca)
	msgs := srv.Messages()
	if code != 0 || !strings.HasPrefix(out, "sent 2 ") || len(msgs) != 2 || !msgs[0].TLS || !msgs[1].TLS {
		t.Fatalf("reminders over STARTTLS = %d %q %q, %+v", code, out, stderr, msgs)
	}
}

func TestRemindersUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"reminders"},
		{"reminders", "--expiring-before", "soon"},
		{"reminders", "--expiring-before", "2027-02-01", "--smtp", "127.0.0.1:25"},
		{"reminders", "--bogus"},
	} {
		if code, _, _ := runCmd(t, args...); code != 2 {
			t.Errorf("chipdesk %q = %d, want 2", args, code)
		}
	}
}

// TestRemindersPermits: --permits reminds a kennel's holder that the
// renewal application is due by December 1 (Chanhassen 5-18(c)), once
// over two runs.
func TestRemindersPermits(t *testing.T) {
	t.Parallel()
	srv, err := smtptest.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	db := reminderDB(t, 0)
	ctx := context.Background()
	st, err := sqlite.Open(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := &service.Owner{Name: "Kari Berg", Address: "9000 Pioneer Trail", City: "Chanhassen", Email: "kari@example.org"}
	if err := st.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	p := &service.Permit{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Class: "private", Holder: o.Name, OwnerID: o.ID,
		State: service.PermitGranted, IssuedOn: service.MustDate("2026-03-10"), ExpiresOn: service.MustDate("2026-12-31"), RenewalDue: service.MustDate("2026-12-01")}
	if err := st.CreatePermit(ctx, p); err != nil {
		t.Fatal(err)
	}
	st.Close()
	args := []string{"reminders", "--db", db, "--expiring-before", "2027-01-01", "--smtp", srv.Addr(), "--from", "animals@ci.chanhassen.mn.us", "--permits"}
	for run := range 2 {
		code, out, stderr := runCmd(t, args...)
		if code != 0 || len(srv.Messages()) != 1 || !strings.Contains(out, fmt.Sprintf("sent %d e-mail", 1-run)) {
			t.Fatalf("run %d = %d %q %q, %d messages; want one message in all", run+1, code, out, stderr, len(srv.Messages()))
		}
	}
	if body := string(srv.Messages()[0].Data); !strings.Contains(body, "2026-12-01 (5-18(c))") {
		t.Errorf("reminder lacks the renewal due date:\n%s", body)
	}
}
