package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
)

// TestAuditCompactCommand: "chipdesk audit compact" applies the config
// file's retention to either store, keeping a change's event and the
// recent lookups whole, and "audit counts" prints what it counted.
func TestAuditCompactCommand(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name string
		db   func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "chipdesk.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.DSN(t) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			db := tt.db(t)
			ctx := context.Background()
			st, err := openStore(ctx, db, func() time.Time { return now })
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range []*service.AuditEvent{
				{At: now.AddDate(0, 0, -40), Actor: "officer-1", Action: "lookup.chip", Entity: "animal", EntityID: 3, Detail: "985141000000003"},
				{At: now.AddDate(0, 0, -40).Add(time.Hour), Actor: "officer-1", Action: "lookup.chip", Entity: "animal", EntityID: 3, Detail: "985141000000003"},
				{At: now.AddDate(0, 0, -40), Actor: "counter-1", Action: "licence.create", Entity: "licence", EntityID: 9, Detail: "tag 2026-000123"},
				{At: now.AddDate(0, 0, -35), Actor: "officer-1", Action: "lookup.chip", Entity: "animal", EntityID: 3, Detail: "985141000000003"},
				{At: now.AddDate(0, 0, -35), Actor: "officer-2", Action: "lookup.chip", Entity: "animal", EntityID: 3, Detail: "985141000000003"},
				{At: now.AddDate(0, 0, -2), Actor: "officer-1", Action: "lookup.chip", Entity: "animal", EntityID: 3, Detail: "985141000000003"},
			} {
				if err := st.CreateAuditEvent(ctx, ev); err != nil {
					t.Fatal(err)
				}
			}
			st.Close()
			conf := filepath.Join(t.TempDir(), "chipdesk.toml")
			if err := os.WriteFile(conf, []byte("[audit]\nkeep_lookups_days = 30\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			cli := func(args ...string) (int, string, string) {
				var out, errb bytes.Buffer
				e := &cmdline.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Now: func() time.Time { return now }}
				return run(ctx, e, args), out.String(), errb.String()
			}
			code, out, stderr := cli("audit", "compact", "--config", conf, "--db", db)
			if code != 0 {
				t.Fatalf("audit compact = %d\n%s%s", code, out, stderr)
			}
			// One line per day, oldest first, then the sum.
			for _, want := range []string{"2026-02-03  2 lookup events counted in 1 rows", "2026-02-08  2 lookup events counted in 2 rows",
				"compacted 4 lookup events before 2026-02-13 into 3 counts over 2 days"} {
				if !strings.Contains(out, want) {
					t.Errorf("audit compact printed\n%s\nwant the line %q", out, want)
				}
			}
			if i, j := strings.Index(out, "2026-02-03 "), strings.Index(out, "2026-02-08 "); i < 0 || j < i {
				t.Errorf("audit compact printed\n%s\nwant 2026-02-03 before 2026-02-08", out)
			}
			code, out, stderr = cli("audit", "counts", "--db", db, "--entity-id", "3")
			if code != 0 {
				t.Fatalf("audit counts = %d\n%s%s", code, out, stderr)
			}
			// Newest day first: the 8th's two lookers, then the 3rd's two
			// lookups by one officer, first and last.
			rows := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			want := []string{
				"day,actor,role,site,token_id,action,entity,entity_id,detail,events,first_at,last_at,compaction_id",
				"2026-02-08,officer-?,,,0,lookup.chip,animal,3,985141000000003,1,2026-02-08T12:00:00Z,2026-02-08T12:00:00Z,",
				"2026-02-08,officer-?,,,0,lookup.chip,animal,3,985141000000003,1,2026-02-08T12:00:00Z,2026-02-08T12:00:00Z,",
				"2026-02-03,officer-1,,,0,lookup.chip,animal,3,985141000000003,2,2026-02-03T12:00:00Z,2026-02-03T13:00:00Z,",
			}
			if len(rows) != len(want) {
				t.Fatalf("audit counts printed\n%s\nwant %d rows", out, len(want))
			}
			actors := map[string]bool{}
			for i, w := range want {
				got := rows[i]
				if i > 0 {
					got = got[:strings.LastIndex(got, ",")+1] // the compaction's id
				}
				if strings.Contains(w, "officer-?") {
					actors[got[11:20]] = true
					got = got[:11] + "officer-?" + got[20:]
				}
				if got != w {
					t.Errorf("audit counts row %d = %s, want %s", i, rows[i], w)
				}
			}
			if !actors["officer-1"] || !actors["officer-2"] {
				t.Errorf("audit counts of 2026-02-08 by %v, want officer-1 and officer-2", actors)
			}
			st, err = openStore(ctx, db, func() time.Time { return now })
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			evs, _, err := st.FindAuditEvents(ctx, service.AuditFilter{})
			if err != nil {
				t.Fatal(err)
			}
			var actions []string
			for _, e := range evs {
				actions = append(actions, e.Action)
				// A change's event is kept whole.
				if e.Action == "licence.create" && (e.Actor != "counter-1" || e.Entity != "licence" || e.EntityID != 9 ||
					e.Detail != "tag 2026-000123" || !e.At.Equal(now.AddDate(0, 0, -40))) {
					t.Errorf("licence.create after = %+v, want it whole", e)
				}
			}
			if got, want := strings.Join(actions, " "), "audit.compact audit.compact lookup.chip licence.create"; got != want {
				t.Errorf("events after = %s, want %s", got, want)
			}
		})
	}
}

// TestAuditPolicyRefused: a retention that is not a number of days is
// refused by the name of its field.
func TestAuditPolicyRefused(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, conf string
		args       []string
		want       string
	}{
		{"negative in the file", "[audit]\nkeep_lookups_days = -1\n", nil, "audit.keep_lookups_days -1"},
		{"not a number in the file", "[audit]\nkeep_lookups_days = \"a year\"\n", nil, "keep_lookups_days"},
		{"negative flag", "", []string{"--keep-lookups-days", "-3"}, "--keep-lookups-days"},
		{"not a number flag", "", []string{"--keep-lookups-days", "a-year"}, "keep-lookups-days"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			conf := filepath.Join(dir, "chipdesk.toml")
			if err := os.WriteFile(conf, []byte(tt.conf), 0o600); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			e := &cmdline.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Now: time.Now}
			args := append([]string{"audit", "compact", "--config", conf, "--db", filepath.Join(dir, "chipdesk.db")}, tt.args...)
			if code := run(context.Background(), e, args); code == 0 || !strings.Contains(errb.String(), tt.want) {
				t.Errorf("chipdesk %q = %d, stderr %q; want a failure naming %q", args, code, errb.String(), tt.want)
			}
		})
	}
}
