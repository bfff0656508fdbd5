package reliability

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/money/smtptest"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// TestKill9DuringReminders runs "chipdesk reminders" over four SMTP
// connections and kills it with SIGKILL once a third of the owners have
// their message; a second run from the same database sends the rest and
// a third sends none. No owner gets two messages, and the only owners
// without one are those the second run reports in doubt (claimed by the
// killed run, at most one per connection). The server is the aiosmtpd
// the test command starts when CHIPDESK_TEST_SMTP and
// CHIPDESK_TEST_SMTP_MAILDIR name it, else smtptest's.
func TestKill9DuringReminders(t *testing.T) {
	t.Parallel()
	const n = 600
	domain := fmt.Sprintf("kill%d-%d.example.org", os.Getpid(), time.Now().UnixNano())
	db := filepath.Join(t.TempDir(), "chipdesk.db")
	ctx := context.Background()
	st, err := sqlite.Open(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		o := &service.Owner{Name: fmt.Sprintf("Owner %d", i), Address: "1 Lake St", City: "Minneapolis", Email: fmt.Sprintf("owner%d@%s", i, domain)}
		if err := st.CreateOwner(ctx, o); err != nil {
			t.Fatal(err)
		}
		a := &service.Animal{OwnerID: o.ID, Name: "Rex", Species: service.Dog, Altered: true}
		if err := st.CreateAnimal(ctx, a); err != nil {
			t.Fatal(err)
		}
		l := &service.Licence{AnimalID: a.ID, Jurisdiction: "minneapolis", IssuedOn: service.MustDate("2026-03-01"),
			ExpiresOn: service.MustDate("2027-01-31"), FeeCents: 1500}
		if err := st.CreateLicence(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	addr, maildir := os.Getenv("CHIPDESK_TEST_SMTP"), os.Getenv("CHIPDESK_TEST_SMTP_MAILDIR")
	var received func() map[string]int
	if addr != "" && maildir != "" {
		received = func() map[string]int { return delivered(maildir, domain) }
		t.Cleanup(func() { smtptest.RemoveDelivered(maildir, domain) })
	} else {
		srv, err := smtptest.Start(nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		addr = srv.Addr()
		received = func() map[string]int {
			got := map[string]int{}
			for _, m := range srv.Messages() {
				for _, to := range m.To {
					got[to]++
				}
			}
			return got
		}
	}
	args := []string{"reminders", "--db", db, "--expiring-before", "2027-02-01", "--smtp", addr,
		"--from", "licensing@minneapolismn.gov", "--smtp-conns", "4"}

	first := exec.Command(chipdesk, args...)
	var firstOut bytes.Buffer
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- first.Wait() }()
	deadline := time.Now().Add(testtime.Scale(2 * time.Minute))
	for {
		if got := received(); len(got) >= n/3 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the first run ended before the kill (%v): make the run longer\n%s", err, firstOut.String())
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			first.Process.Kill()
			t.Fatalf("only %d messages in %s\n%s", len(received()), testtime.Scale(2*time.Minute), firstOut.String())
		}
	}
	first.Process.Signal(syscall.SIGKILL)
	<-done
	atKill := len(received())
	if atKill >= n {
		t.Fatalf("every message was sent before the kill")
	}

	out, err := exec.Command(chipdesk, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("second run: %v\n%s", err, out)
	}
	var sent, letters, failed, doubt, queued int
	if _, err := fmt.Sscanf(string(out), "sent %d e-mail reminders, %d letters, %d failed, %d in doubt (%d queued now)", &sent, &letters, &failed, &doubt, &queued); err != nil {
		t.Fatalf("second run said %q: %v", out, err)
	}
	out3, err := exec.Command(chipdesk, args...).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out3), "sent 0 e-mail reminders") {
		t.Fatalf("third run: %v %q, want none sent", err, out3)
	}
	got := received()
	for to, k := range got {
		if k != 1 {
			t.Errorf("%s got %d messages, want 1", to, k)
		}
	}
	t.Logf("killed with %d of %d delivered; the second run sent %d, %d in doubt", atKill, n, sent, doubt)
	if doubt > 4 || len(got)+doubt < n || len(got) > n {
		t.Fatalf("%d owners have their message and %d are in doubt, of %d; want all but at most the 4 in doubt", len(got), doubt, n)
	}
}

// delivered counts the messages to each address at domain in maildir.
func delivered(maildir, domain string) map[string]int {
	got := map[string]int{}
	for to, paths := range smtptest.Delivered(maildir, domain) {
		got[to] = len(paths)
	}
	return got
}
