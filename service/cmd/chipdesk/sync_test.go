package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/offline"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// TestSyncCommand drives a handheld through the command line: pull a
// replica, look a chip up offline and queue the scan, sync again; the
// central store (a database reached directly, or the HTTP handler) has
// the scan once.
func TestSyncCommand(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		central func(t *testing.T) (target string, st service.Store)
	}{
		{"sqlite", func(t *testing.T) (string, service.Store) {
			path := filepath.Join(t.TempDir(), "central.db")
			st, err := sqlite.Open(context.Background(), path, &sqlite.Opts{Now: migrateClock})
			if err != nil {
				t.Fatal(err)
			}
			return path, st
		}},
		{"postgres", func(t *testing.T) (string, service.Store) {
			dsn := pgtest.DSN(t)
			st, err := openBackend(context.Background(), dsn, migrateClock, nil)
			if err != nil {
				t.Fatal(err)
			}
			return dsn, st
		}},
		{"http", func(t *testing.T) (string, service.Store) {
			st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "central.db"), &sqlite.Opts{Now: migrateClock})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(http.StripPrefix(offline.SyncPath, offline.Handler(&offline.StoreCentral{Store: st}, nil)))
			t.Cleanup(srv.Close)
			return srv.URL, st
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			target, st := tt.central(t)
			defer st.Close()
			o := &service.Owner{Name: "Ada Lund", Phone: "612-555-0101", Address: "12 Lake St"}
			if err := st.CreateOwner(ctx, o); err != nil {
				t.Fatal(err)
			}
			a := &service.Animal{OwnerID: o.ID, Name: "Rex", Species: service.Dog}
			if err := st.CreateAnimal(ctx, a); err != nil {
				t.Fatal(err)
			}
			if err := st.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: "985141000123456", Kind: chipid.KindISO}); err != nil {
				t.Fatal(err)
			}
			replica := filepath.Join(t.TempDir(), "handheld.db")
			common := []string{"--replica", replica, "--device", "handheld-3", "--user", "officer-7", "--site", "north", "--pin", "4827"}

			code, out, errOut := runCLI(append([]string{"sync", "--central", target}, common...)...)
			if code != 0 || !strings.Contains(out, "replica: 1 records") {
				t.Fatalf("sync (first pull): exit %d\n%s%s", code, out, errOut)
			}
			// Offline: the 16-hex form of the same chip, as some readers
			// print it, is normalised by chipid.
			code, out, errOut = runCLI(append([]string{"sync", "scan", "985141000123456"}, common...)...)
			if code != 0 || !strings.Contains(out, "owner: Ada Lund, phone 612-555-0101") || strings.Contains(out, "Lake St") || !strings.Contains(errOut, "queued scan") {
				t.Fatalf("sync scan: exit %d, stdout %s, stderr %s; want the record with the owner's name but no address", code, out, errOut)
			}
			code, out, _ = runCLI(append([]string{"sync", "scan", "900000000000001"}, common...)...)
			if code != 0 || !strings.Contains(out, "not in the offline copy") {
				t.Fatalf("sync scan (unknown): exit %d, %s", code, out)
			}
			code, out, _ = runCLI(append([]string{"sync", "status"}, common...)...)
			if code != 0 || !strings.Contains(out, "queued 2, applied 0, rejected 0") || !strings.Contains(out, "records sealed under key k") {
				t.Fatalf("sync status: exit %d, %s", code, out)
			}
			code, out, errOut = runCLI(append([]string{"sync", "--central", target}, common...)...)
			if code != 0 || !strings.Contains(out, "pushed 2: 2 applied, 0 duplicates, 0 rejected; 0 still queued") {
				t.Fatalf("sync (push): exit %d\n%s%s", code, out, errOut)
			}
			scans, n, err := st.FindScans(ctx, service.ScanFilter{})
			if err != nil || n != 2 {
				t.Fatalf("central scans = %d (%v), want 2", n, err)
			}
			for _, s := range scans {
				if s.User != "officer-7" || s.Site != "north" || s.Reader != "handheld-3" {
					t.Errorf("central scan %+v, want officer-7 at north with handheld-3", s)
				}
			}
			code, out, _ = runCLI(append([]string{"sync", "--central", target}, common...)...)
			if code != 0 || !strings.Contains(out, "pushed 0:") {
				t.Fatalf("sync (nothing queued): exit %d, %s", code, out)
			}
		})
	}
}

func TestSyncCommandUsage(t *testing.T) {
	t.Parallel()
	replica := filepath.Join(t.TempDir(), "r.db")
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no central", []string{"sync", "--replica", replica}, 2, "--central"},
		{"scan without chip", []string{"sync", "scan", "--replica", replica}, 2, "one chip number"},
		{"scan of garbage", []string{"sync", "scan", "not-a-chip", "--replica", replica}, 1, "sync scan"},
		{"central down", []string{"sync", "--replica", replica, "--central", "http://127.0.0.1:1", "--pin", "4827"}, 1, "offline: pull"},
	} {
		code, _, errOut := runCLI(tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: run(%q) = exit %d, stderr %q; want exit %d with %q", tt.name, tt.args, code, errOut, tt.code, tt.want)
		}
	}
}

// serve mounts the sync endpoints beside the API: a handheld with an
// officer token syncs at /api/v1/sync; other paths reach the API.
func TestWithSync(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := openBackend(ctx, filepath.Join(t.TempDir(), "central.db"), migrateClock, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	secret, err := st.CreateToken(ctx, &service.Token{Name: "officer-7", Role: service.RoleOfficer, Site: "north"})
	if err != nil {
		t.Fatal(err)
	}
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "the api", http.StatusTeapot) })
	srv := httptest.NewServer(withSync(api, nil, st, nil, nil, nil))
	defer srv.Close()
	replica := filepath.Join(t.TempDir(), "handheld.db")
	code, out, errOut := runCLI("sync", "--replica", replica, "--central", srv.URL, "--token", secret, "--pin", "4827")
	if code != 0 || !strings.Contains(out, "replica: 0 records") {
		t.Fatalf("sync through serve's handler: exit %d\n%s%s", code, out, errOut)
	}
	resp, err := http.Get(srv.URL + "/api/v1/lookup")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTeapot {
		t.Fatalf("GET /api/v1/lookup = %s, want the API's answer", resp.Status)
	}
	code, _, errOut = runCLI("sync", "--replica", replica, "--central", srv.URL, "--token", "cdk_wrong", "--pin", "4827")
	if code != 1 || !strings.Contains(errOut, "401") {
		t.Fatalf("sync with a bad token: exit %d, %s", code, errOut)
	}
}

// TestSyncContract drives the handheld against the service as serve
// wires it: pull with the service's base URL and a device token, a
// second pull with nothing changed sends under 1 % of the bytes of the
// first, a bite queued offline and pushed starts its quarantine through
// incidents (66.40, 5-39(a)), and every pull and push is in the audit
// log under the device's token.
func TestSyncContract(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := defaultConfig()
	cfg.DB = filepath.Join(t.TempDir(), "central.db")
	cfg.DevKeys = true
	a, err := openApp(ctx, &cfg, slog.New(slog.DiscardHandler), migrateClock)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	srv := httptest.NewServer(a.srv.Handler)
	defer srv.Close()
	// A thousand dogs, each with its owner and chip, imported at once.
	const n = 1000
	b := &service.Batch{}
	for i := 1; i <= n; i++ {
		b.Owners = append(b.Owners, &service.Owner{ID: int64(i), Name: fmt.Sprintf("Owner %d", i), Phone: fmt.Sprintf("612-555-%04d", i),
			Address: fmt.Sprintf("%d Lake St", i), Email: fmt.Sprintf("owner%d@example.org", i)})
		b.Animals = append(b.Animals, &service.Animal{ID: int64(i), OwnerID: int64(i), Name: fmt.Sprintf("Dog %d", i), Species: service.Dog})
		b.Chips = append(b.Chips, &service.Chip{AnimalID: int64(i), Code: fmt.Sprintf("985141%09d", i*7919), Kind: chipid.KindISO})
	}
	if err := a.store.Import(ctx, b); err != nil {
		t.Fatal(err)
	}
	rex := b.Animals[0]
	rexChip := b.Chips[0].Code
	device, err := a.store.CreateToken(ctx, &service.Token{Name: "handheld-3", Role: service.RoleOfficer, Site: "north"})
	if err != nil {
		t.Fatal(err)
	}
	clerk, err := a.store.CreateToken(ctx, &service.Token{Name: "clerk", Role: service.RoleAdmin})
	if err != nil {
		t.Fatal(err)
	}
	replica := filepath.Join(t.TempDir(), "handheld.db")
	common := []string{"--central", srv.URL, "--token", device, "--replica", replica, "--pin", "4827"}
	received := regexp.MustCompile(`(\d+) bytes received`)
	pull := func(what string) int {
		t.Helper()
		code, out, errOut := runCLI(append([]string{"sync", "pull"}, common...)...)
		m := received.FindStringSubmatch(out)
		if code != 0 || m == nil || !strings.Contains(out, "replica: 1000 records") {
			t.Fatalf("sync pull (%s): exit %d\n%s%s", what, code, out, errOut)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	first := pull("first")
	second := pull("nothing changed")
	if second*100 >= first {
		t.Errorf("second pull received %d bytes, first %d: want under 1 %%", second, first)
	}
	code, out, errOut := runCLI("sync", "bite", "--replica", replica, "--chip", rexChip, "--victim", "person", "--date", "2026-03-14")
	if code != 0 || !strings.Contains(out, "queued bite") {
		t.Fatalf("sync bite: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI("sync", "impound", "--replica", replica, "--chip", b.Chips[1].Code, "--where", "Lake St and 4th Ave")
	if code != 0 || !strings.Contains(out, "queued pickup") {
		t.Fatalf("sync impound: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(append([]string{"sync", "push"}, common...)...)
	if code != 0 || !strings.Contains(out, "pushed 2: 2 applied, 0 duplicates, 0 rejected; 0 still queued") {
		_, rej, _ := runCLI("sync", "rejected", "--replica", replica)
		t.Fatalf("sync push: exit %d\n%s%s%s", code, out, errOut, rej)
	}
	req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/v1/animals/%d/record", srv.URL, rex.ID), nil)
	req.Header.Set("Authorization", "Bearer "+clerk)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Quarantines []struct {
			BiteID int64        `json:"bite_id"`
			Start  service.Date `json:"start"`
		} `json:"quarantines"`
	}
	err = json.NewDecoder(resp.Body).Decode(&rec)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || len(rec.Quarantines) != 1 || rec.Quarantines[0].BiteID == 0 {
		t.Fatalf("GET record = %d %+v (%v); want the quarantine of the pushed bite", resp.StatusCode, rec, err)
	}
	// The pickup is an impoundment with its hold, made by custody.
	req, _ = http.NewRequest("GET", fmt.Sprintf("%s/api/v1/animals/%d/record", srv.URL, b.Animals[1].ID), nil)
	req.Header.Set("Authorization", "Bearer "+clerk)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var held struct {
		Impounds []struct {
			WhereFound string       `json:"where_found"`
			HoldUntil  service.Date `json:"hold_until"`
			Open       bool         `json:"open"`
		} `json:"impounds"`
	}
	err = json.NewDecoder(resp.Body).Decode(&held)
	resp.Body.Close()
	if err != nil || len(held.Impounds) != 1 || !held.Impounds[0].Open || held.Impounds[0].HoldUntil.IsZero() ||
		held.Impounds[0].WhereFound != "Lake St and 4th Ave" {
		t.Fatalf("GET record of the picked-up dog = %+v (%v); want one open impoundment with its hold", held, err)
	}
	// The quarantine is in the handheld's copy after the next pull.
	pull("after the bite")
	code, out, _ = runCLI("sync", "lookup", rexChip, "--replica", replica, "--pin", "4827")
	if code != 0 || !strings.Contains(out, "QUARANTINE") || !strings.Contains(out, "copy as of 2026-03-15") {
		t.Fatalf("sync lookup after the bite: exit %d\n%s", code, out)
	}
	// The copy is sealed: a wrong PIN is refused, the PIN on standard
	// input opens it.
	code, _, errOut = runCLI("sync", "lookup", rexChip, "--replica", replica, "--pin", "1111")
	if code != 1 || !strings.Contains(errOut, "Wrong PIN") {
		t.Fatalf("sync lookup with a wrong PIN: exit %d, %s", code, errOut)
	}
	var stdout, stderr bytes.Buffer
	if code := run(ctx, &cmdline.Env{Stdin: strings.NewReader("4827\n"), Stdout: &stdout, Stderr: &stderr, Now: migrateClock},
		[]string{"sync", "lookup", rexChip, "--replica", replica, "--pin", "-"}); code != 0 || !strings.Contains(stdout.String(), "QUARANTINE") {
		t.Fatalf("sync lookup --pin - : exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	actor := "handheld-3"
	evs, _, err := a.store.FindAuditEvents(ctx, service.AuditFilter{Actor: &actor, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, ev := range evs {
		if ev.TokenID == 0 {
			t.Errorf("audit %s by handheld-3 names no token", ev.Action)
		}
		got[ev.Action]++
	}
	if got["replica.pull"] != 3 || got["replica.push"] != 1 || got["bite.create"] != 1 {
		t.Errorf("audit of handheld-3 = %v, want 3 pulls, 1 push, 1 bite", got)
	}

	// A field note: queued offline, pushed once, on the animal's record
	// and page, by the device's token, audited.
	code, out, errOut = runCLI("sync", "note", "--replica", replica, "--chip", rexChip, "--text", "Gate latch broken; owner told to fix by Friday.")
	if code != 0 || !strings.Contains(out, "queued note") {
		t.Fatalf("sync note: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runCLI("sync", "note", "--replica", replica, "--chip", rexChip); code != 2 || !strings.Contains(errOut, "--text") {
		t.Errorf("sync note without --text: exit %d, %s; want 2 naming --text", code, errOut)
	}
	code, out, errOut = runCLI(append([]string{"sync", "push"}, common...)...)
	if code != 0 || !strings.Contains(out, "pushed 1: 1 applied, 0 duplicates, 0 rejected; 0 still queued") {
		t.Fatalf("sync push of the note: exit %d\n%s%s", code, out, errOut)
	}
	req, _ = http.NewRequest("GET", fmt.Sprintf("%s/api/v1/animals/%d/record", srv.URL, rex.ID), nil)
	req.Header.Set("Authorization", "Bearer "+clerk)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var noted struct {
		Notes []service.AnimalNote `json:"notes"`
	}
	err = json.NewDecoder(resp.Body).Decode(&noted)
	resp.Body.Close()
	if err != nil || len(noted.Notes) != 1 || noted.Notes[0].Text != "Gate latch broken; owner told to fix by Friday." ||
		noted.Notes[0].Author != "handheld-3" || noted.Notes[0].Device == "" {
		t.Fatalf("GET record after the note = %+v (%v); want the note by handheld-3", noted, err)
	}
	evs, _, err = a.store.FindAuditEvents(ctx, service.AuditFilter{Actor: &actor, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	notes := 0
	for _, ev := range evs {
		if ev.Action == "note.create" && ev.EntityID == noted.Notes[0].ID && ev.TokenID != 0 {
			notes++
		}
	}
	if notes != 1 {
		t.Errorf("%d note.create audit entries with the device's token, want 1", notes)
	}
}

// TestReplicaAndCentralNotMistaken: --replica refuses the central
// database (and leaves it as it was), serve's store refuses a replica.
func TestReplicaAndCentralNotMistaken(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	central := filepath.Join(t.TempDir(), "central.db")
	st, err := openBackend(ctx, central, migrateClock, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	code, _, errOut := runCLI("sync", "status", "--replica", central)
	if code == 0 || !strings.Contains(errOut, "central service's database") {
		t.Fatalf("sync status --replica CENTRAL: exit %d, %s; want a refusal", code, errOut)
	}
	if st, err := openBackend(ctx, central, migrateClock, nil); err != nil {
		t.Fatalf("the central database after the refusal: %v", err)
	} else {
		st.Close()
	}
	replica := filepath.Join(t.TempDir(), "handheld.db")
	if code, out, errOut := runCLI("sync", "status", "--replica", replica); code != 0 {
		t.Fatalf("sync status: exit %d %s%s", code, out, errOut)
	}
	if fi, err := os.Stat(replica); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("replica file mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	if _, err := openBackend(ctx, replica, migrateClock, nil); err == nil || !strings.Contains(err.Error(), "offline replica") {
		t.Fatalf("openBackend(replica) = %v, want a refusal", err)
	}
}

// TestSyncSilentServer: against a server that accepts the connection
// and never answers, a push ends at its timeout, says so, and reports
// the event still queued (never "0 still queued").
func TestSyncSilentServer(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	replica := filepath.Join(t.TempDir(), "handheld.db")
	if code, _, errOut := runCLI("sync", "scan", "985141000123456", "--replica", replica, "--max-age=-1s"); code != 0 {
		t.Fatalf("sync scan: exit %d %s", code, errOut)
	}
	code, out, errOut := runCLI("sync", "push", "--replica", replica, "--central", "http://"+ln.Addr().String(),
		"--timeout", testtime.Scale(300*time.Millisecond).String(), "--attempts", "2")
	if code == 0 || !strings.Contains(errOut+out, "no answer within") || !strings.Contains(out, "1 still queued") {
		t.Fatalf("sync push to a silent server: exit %d\n%s%s; want the timeout and 1 still queued", code, out, errOut)
	}
}
