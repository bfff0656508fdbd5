package reliability

import (
	"bufio"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
)

// TestKill9DuringAuditCompaction runs "chipdesk audit compact" on 120
// days of lookup events older than the retention, kills it with SIGKILL
// once it reports its first day, and checks that every lookup is either
// still an event or in exactly one count, every change's event is kept,
// and every compaction is audited; run again, it counts the rest, each
// event once.
func TestKill9DuringAuditCompaction(t *testing.T) {
	t.Parallel()
	killDuringCompaction(t, filepath.Join(t.TempDir(), "chipdesk.db"))
}

// TestKill9DuringAuditCompactionPostgres is the same on PostgreSQL.
func TestKill9DuringAuditCompactionPostgres(t *testing.T) {
	t.Parallel()
	killDuringCompaction(t, pgtest.DSN(t))
}

func killDuringCompaction(t *testing.T, db string) {
	const days, perDay, changes = 120, 200, 60
	ctx := context.Background()
	st, err := openStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	batch, ok := st.(interface {
		CreateAuditEvents(ctx context.Context, evs []*service.AuditEvent) error
	})
	if !ok {
		t.Fatalf("%T takes no batch of audit events", st)
	}
	// Well past the default retention of 365 days.
	first := time.Now().UTC().AddDate(0, 0, -400-days).Truncate(24 * time.Hour)
	for d := range days {
		evs := make([]*service.AuditEvent, 0, perDay+1)
		for i := range perDay {
			evs = append(evs, &service.AuditEvent{At: first.AddDate(0, 0, d).Add(time.Duration(i) * time.Minute),
				Actor: fmt.Sprintf("officer-%d", i%7), Site: "east", Action: "lookup.chip", Entity: "animal", EntityID: int64(i % 50),
				Detail: fmt.Sprintf("9851410000%05d", i%50)})
		}
		if d%(days/changes) == 0 {
			evs = append(evs, &service.AuditEvent{At: first.AddDate(0, 0, d), Actor: "counter-1", Action: "licence.create", Entity: "licence", EntityID: int64(d)})
		}
		if err := batch.CreateAuditEvents(ctx, evs); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	type tally struct{ lookups, counted, changes, compactions, compactionIDs int }
	take := func() tally {
		t.Helper()
		st, err := openStore(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		var n tally
		evs, _, err := st.FindAuditEvents(ctx, service.AuditFilter{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			switch {
			case strings.HasPrefix(e.Action, service.LookupActionPrefix):
				n.lookups++
			case e.Action == "licence.create":
				n.changes++
			case e.Action == "audit.compact":
				n.compactions++
			}
		}
		counts, _, err := st.FindAuditCounts(ctx, service.AuditFilter{})
		if err != nil {
			t.Fatal(err)
		}
		ids := map[int64]bool{}
		for _, k := range counts {
			n.counted += int(k.Events)
			ids[k.CompactionID] = true
		}
		n.compactionIDs = len(ids)
		return n
	}
	check := func(when string, n tally) {
		t.Helper()
		if n.lookups+n.counted != days*perDay || n.changes != changes || n.compactions != n.compactionIDs {
			t.Fatalf("%s: %d lookup events kept + %d counted = %d, want %d; %d changes kept, want %d; %d compactions audited, %d with counts",
				when, n.lookups, n.counted, n.lookups+n.counted, days*perDay, n.changes, changes, n.compactions, n.compactionIDs)
		}
	}

	cctx, cancel := context.WithTimeout(ctx, testtime.Scale(3*time.Minute))
	defer cancel()
	cmd := exec.CommandContext(cctx, chipdesk, "audit", "compact", "--db", db)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() && !strings.Contains(sc.Text(), "lookup events counted") {
	}
	cmd.Process.Kill()
	cmd.Wait()
	killed := take()
	check("after the kill", killed)
	t.Logf("killed with %d of %d days compacted", killed.compactionIDs, days)

	if b, err := exec.CommandContext(cctx, chipdesk, "audit", "compact", "--db", db).CombinedOutput(); err != nil {
		t.Fatalf("audit compact again: %v\n%s", err, b)
	}
	done := take()
	check("run again", done)
	if done.lookups != 0 || done.compactionIDs != days {
		t.Errorf("run again: %d lookup events left, %d days compacted; want 0 and %d", done.lookups, done.compactionIDs, days)
	}
}
