package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

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
			srv := httptest.NewServer(offline.Handler(&offline.StoreCentral{Store: st}, nil))
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
			common := []string{"--replica", replica, "--device", "handheld-3", "--user", "officer-7", "--site", "north"}

			code, out, errOut := runCLI(append([]string{"sync", "--central", target}, common...)...)
			if code != 0 || !strings.Contains(out, "replica: 1 records") {
				t.Fatalf("sync (first pull): exit %d\n%s%s", code, out, errOut)
			}
			// Offline: the 16-hex form of the same chip, as some readers
			// print it, is normalised by chipid.
			code, out, errOut = runCLI(append([]string{"sync", "scan", "985141000123456"}, common...)...)
			if code != 0 || !strings.Contains(out, `"name": "Ada Lund"`) || strings.Contains(out, "Lake St") || !strings.Contains(errOut, "queued scan") {
				t.Fatalf("sync scan: exit %d, stdout %s, stderr %s; want the record with the owner's name but no address", code, out, errOut)
			}
			code, out, _ = runCLI(append([]string{"sync", "scan", "900000000000001"}, common...)...)
			if code != 0 || !strings.Contains(out, "not in the offline copy") {
				t.Fatalf("sync scan (unknown): exit %d, %s", code, out)
			}
			code, out, _ = runCLI(append([]string{"sync", "status"}, common...)...)
			if code != 0 || !strings.Contains(out, "queued 2, applied 0, rejected 0") {
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
		{"central down", []string{"sync", "--replica", replica, "--central", "http://127.0.0.1:1"}, 1, "offline: pull"},
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
	srv := httptest.NewServer(withSync(api, nil, st, nil, nil))
	defer srv.Close()
	replica := filepath.Join(t.TempDir(), "handheld.db")
	code, out, errOut := runCLI("sync", "--replica", replica, "--central", srv.URL+syncPrefix, "--token", secret)
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
	code, _, errOut = runCLI("sync", "--replica", replica, "--central", srv.URL+syncPrefix, "--token", "cdk_wrong")
	if code != 1 || !strings.Contains(errOut, "401") {
		t.Fatalf("sync with a bad token: exit %d, %s", code, errOut)
	}
}
