package offline_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/offline"
)

// copyFile copies a closed replica file.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// queueScans makes a replica at path with n scans queued, closed.
func queueScans(t *testing.T, path string, n int) {
	t.Helper()
	r, err := offline.Open(context.Background(), path, &offline.Opts{Device: "handheld-3", PIN: testPIN, Now: now, MaxAge: -1})
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		if _, err := r.RecordScan(context.Background(), parse(t, dogChip), "handheld-3"); err != nil {
			t.Fatal(err)
		}
	}
	r.Close()
}

func pushFile(t *testing.T, path string, c offline.Central) (offline.Report, error) {
	r, err := offline.Open(context.Background(), path, &offline.Opts{Device: "handheld-3", PIN: testPIN, Now: now, MaxAge: -1})
	if err != nil {
		return offline.Report{}, err
	}
	defer r.Close()
	return offline.Sync(context.Background(), r, c, &offline.SyncOpts{NoPull: true, Batch: 5})
}

// TestRepushOldCopyAndConcurrentPushes: a replica pushed, then an old
// copy of it (taken before the push) pushed again, then three copies
// pushed at once: the central store has every scan once, and each copy
// hears "duplicate" for the events applied before.
func TestRepushOldCopyAndConcurrentPushes(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			s := be.open(t)
			seed(t, s)
			srv := httptest.NewServer(offline.Handler(&offline.StoreCentral{Store: s}, nil))
			defer srv.Close()
			c := &offline.HTTPClient{URL: srv.URL}
			dir := t.TempDir()
			orig := filepath.Join(dir, "handheld.db")
			queueScans(t, orig, 20)
			var copies []string
			for _, n := range []string{"old.db", "a.db", "b.db", "c.db"} {
				copyFile(t, orig, filepath.Join(dir, n))
				copies = append(copies, filepath.Join(dir, n))
			}
			if rep, err := pushFile(t, orig, c); err != nil || rep.Applied != 20 {
				t.Fatalf("first push = %+v, %v; want 20 applied", rep, err)
			}
			if rep, err := pushFile(t, copies[0], c); err != nil || rep.Duplicates != 20 || rep.Applied != 0 {
				t.Fatalf("push of the old copy = %+v, %v; want 20 duplicates", rep, err)
			}
			var wg sync.WaitGroup
			reps := make([]offline.Report, 3)
			errs := make([]error, 3)
			for i, p := range copies[1:] {
				wg.Add(1)
				go func() { defer wg.Done(); reps[i], errs[i] = pushFile(t, p, c) }()
			}
			wg.Wait()
			for i := range reps {
				if errs[i] != nil || reps[i].Duplicates != 20 || reps[i].Queued != 0 {
					t.Errorf("concurrent push %d = %+v, %v; want 20 duplicates", i, reps[i], errs[i])
				}
			}
			if _, n, _ := s.FindScans(context.Background(), service.ScanFilter{}); n != 20 {
				t.Fatalf("central has %d scans, want 20", n)
			}
		})
	}
}

// TestKillDuringPush: the handheld's process is killed (SIGKILL) while
// a push is in flight, after the central store applied the batch but
// before the answer reached the device. The next sync pushes the same
// events again: each is applied once.
func TestKillDuringPush(t *testing.T) {
	if p := os.Getenv("CHIPDESK_OFFLINE_PUSH_CHILD"); p != "" {
		// The child: push the replica at p to the URL given, and block.
		r, err := offline.Open(context.Background(), p, &offline.Opts{Device: "handheld-3", PIN: testPIN, Now: now, MaxAge: -1})
		if err != nil {
			os.Exit(3)
		}
		offline.Sync(context.Background(), r, &offline.HTTPClient{URL: os.Getenv("CHIPDESK_OFFLINE_PUSH_URL"), Timeout: time.Hour},
			&offline.SyncOpts{NoPull: true, Batch: 5})
		os.Exit(0)
	}
	t.Parallel()
	s := backends[0].open(t)
	seed(t, s)
	applied := make(chan struct{}, 1)
	h := offline.Handler(&offline.StoreCentral{Store: s}, nil)
	var once sync.Once
	hold := make(chan struct{})
	defer close(hold)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		first := false
		once.Do(func() { first = true })
		if first {
			// Applied at the central store; the answer never leaves.
			applied <- struct{}{}
			select {
			case <-hold:
			case <-req.Context().Done(): // the child is gone
			}
			return
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		io.Copy(w, rec.Body)
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "handheld.db")
	queueScans(t, path, 12)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillDuringPush$")
	cmd.Env = append(os.Environ(), "CHIPDESK_OFFLINE_PUSH_CHILD="+path, "CHIPDESK_OFFLINE_PUSH_URL="+srv.URL)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-applied:
	case <-time.After(testtime.Scale(20 * time.Second)):
		cmd.Process.Kill()
		t.Fatal("the child's push never reached the central service")
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	cmd.Wait()
	rep, err := pushFile(t, path, &offline.HTTPClient{URL: srv.URL})
	if err != nil || rep.Duplicates != 5 || rep.Applied != 7 || rep.Queued != 0 {
		t.Fatalf("push after the kill = %+v, %v; want the first batch's 5 as duplicates and 7 applied", rep, err)
	}
	if _, n, _ := s.FindScans(context.Background(), service.ScanFilter{}); n != 12 {
		t.Fatalf("central has %d scans, want 12", n)
	}
}
