package bench

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service/money/smtptest"
)

// TestReminderFigures: the reminder run sends one message per licence
// of its share of the data set to the SMTP server named, says which
// server it ran against beside its target (60 s for 100,000, in
// proportion), and, the server being a local process (this one), its
// CPU per message.
func TestReminderFigures(t *testing.T) {
	srv, err := smtptest.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	r := &Report{}
	o := &Opts{SMTP: srv.Addr()}
	if err := reminderFigures(context.Background(), r, o, nil, t.TempDir(), 1000, func(string, ...any) {}); err != nil {
		t.Fatal(err)
	}
	if got := len(srv.Messages()); got != remindMinLicences {
		t.Errorf("server received %d messages, want %d", got, remindMinLicences)
	}
	if len(r.Figures) != 2 {
		t.Fatalf("figures %+v, want the run and the server's CPU", r.Figures)
	}
	run, cpu := r.Figures[0], r.Figures[1]
	if run.Name != "reminder run, 500 licences" || run.Target != 0.3 || run.Better != Lower || run.Value <= 0 || !strings.Contains(run.Note, srv.Addr()) {
		t.Errorf("run figure %+v, want 500 licences against %s, target 0.3 s", run, srv.Addr())
	}
	if cpu.Skipped != "" || !strings.Contains(cpu.Note, fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("server CPU figure %+v, want measured on this process (pid %d)", cpu, os.Getpid())
	}
	if remindLicences(fullSize) != 100_000 || remindLicences(20_000) != 2_000 {
		t.Errorf("reminder licences %d at the full size, %d at 20,000; want 100,000 and 2,000", remindLicences(fullSize), remindLicences(20_000))
	}
}

// TestListenerProcessNone: a port nobody listens on is no process.
func TestListenerProcessNone(t *testing.T) {
	if pid, _ := listenerProcess("127.0.0.1:1"); pid != 0 {
		t.Errorf("listenerProcess(port 1) = %d, want 0", pid)
	}
	if pid, _ := listenerProcess("no-port"); pid != 0 {
		t.Errorf("listenerProcess(no port) = %d, want 0", pid)
	}
}

// TestReminderFiguresLocalServer is the same run against the SMTP server
// the test command starts (aiosmtpd, CHIPDESK_TEST_SMTP), its messages
// removed from its Maildir afterwards; it skips when none is named.
func TestReminderFiguresLocalServer(t *testing.T) {
	addr := os.Getenv("CHIPDESK_TEST_SMTP")
	if addr == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but CHIPDESK_TEST_SMTP names no SMTP server")
		}
		t.Skip("CHIPDESK_TEST_SMTP names no SMTP server (the test command starts aiosmtpd)")
	}
	r := &Report{}
	o := &Opts{SMTP: addr, SMTPMaildir: os.Getenv("CHIPDESK_TEST_SMTP_MAILDIR")}
	if err := reminderFigures(context.Background(), r, o, nil, t.TempDir(), 1000, func(string, ...any) {}); err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Figures {
		t.Logf("%s: %.3f %s (%s%s)", f.Name, f.Value, f.Unit, f.Note, f.Skipped)
	}
	if len(r.Figures) != 2 || !strings.Contains(r.Figures[0].Note, addr) {
		t.Errorf("figures %+v, want the run against %s and the server's CPU", r.Figures, addr)
	}
}
