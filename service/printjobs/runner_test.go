package printjobs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port/tcpport"
	"github.com/chipdesk/chipdesk/drivers/printers/zpl"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/zplsim"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/printjobs"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
	"github.com/chipdesk/chipdesk/tags"
	"github.com/chipdesk/chipdesk/tags/check"
)

var now = time.Date(2026, 6, 15, 15, 0, 0, 0, time.UTC)

type env struct {
	store  *sqlite.DB
	tagger *printjobs.Tagger
	lic    *service.Licence
}

func newEnv(t *testing.T, species service.Species, jurisdiction string) *env {
	t.Helper()
	ctx := context.Background()
	rs, err := rules.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "db"), &sqlite.Opts{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	designs, err := tags.LoadDesigns("")
	if err != nil {
		t.Fatal(err)
	}
	a := &service.Animal{Name: "Tom", Species: species}
	if err := db.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	l := &service.Licence{AnimalID: a.ID, Kind: service.KindLicence, Jurisdiction: jurisdiction, Year: 2026,
		IssuedOn: service.MustDate("2026-06-15"), ExpiresOn: service.MustDate("2027-06-14"), Status: service.LicenceActive}
	if err := db.CreateLicence(ctx, l); err != nil {
		t.Fatal(err)
	}
	return &env{store: db, lic: l, tagger: &printjobs.Tagger{Store: db, Rules: rs, Designs: designs, Keys: check.DevelopmentKeys()}}
}

func printer(t *testing.T, st zpl.HostStatus) (*zplsim.Printer, *zpl.Dev) {
	t.Helper()
	sim, err := zplsim.Listen(&zplsim.Opts{Status: st})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	p, err := tcpport.Dial(context.Background(), sim.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := zpl.New(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	return sim, dev
}

func TestDesignFor(t *testing.T) {
	t.Parallel()
	e := newEnv(t, service.Dog, "minneapolis")
	for _, tc := range []struct {
		name, j string
		year    int
		want    string // design jurisdiction, "" for an error
	}{
		{"minneapolis 2026", "minneapolis", 2026, "MPLS"},
		{"minneapolis 2027", "minneapolis", 2027, "MPLS"},
		{"chanhassen 2026", "chanhassen", 2026, "CHAN"},
		{"no design for 2031", "minneapolis", 2031, ""},
		{"unknown city", "duluth", 2026, ""},
	} {
		d, err := e.tagger.DesignFor(tc.j, tc.year)
		switch {
		case tc.want == "" && !errors.Is(err, printjobs.ErrNoDesign):
			t.Errorf("%s: DesignFor(%q, %d) = %v, %v, want ErrNoDesign", tc.name, tc.j, tc.year, d, err)
		case tc.want != "" && (err != nil || d.Jurisdiction != tc.want || d.Year != tc.year):
			t.Errorf("%s: DesignFor(%q, %d) = %v, %v, want %s %d", tc.name, tc.j, tc.year, d, err, tc.want, tc.year)
		}
	}
}

// TestRunOnce prints a queued job on the fake ZPL printer: the label
// carries the tag's register number and the job ends done.
func TestRunOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, service.Dog, "minneapolis")
	sim, dev := printer(t, zplsim.ReadyStatus)
	r, err := printjobs.New(&printjobs.Opts{Tagger: e.tagger, Printer: dev, Device: "label-1"})
	if err != nil {
		t.Fatal(err)
	}
	if did, err := r.RunOnce(ctx); did || err != nil {
		t.Fatalf("RunOnce on an empty queue = %v, %v, want false, nil", did, err)
	}
	j := &service.Job{Kind: service.JobPrint, LicenceID: e.lic.ID, Reason: "new"}
	if _, err := e.store.CreateJob(ctx, j); err != nil {
		t.Fatal(err)
	}
	if did, err := r.RunOnce(ctx); !did || err != nil {
		t.Fatalf("RunOnce = %v, %v, want true, nil", did, err)
	}
	got, _ := e.store.FindJobByID(ctx, j.ID)
	if got.State != service.JobDone || got.Device != "label-1" || got.Attempts != 1 {
		t.Errorf("job %+v, want done on label-1 after 1 attempt", got)
	}
	jobs := sim.Jobs()
	if len(jobs) != 1 {
		t.Fatalf("printer got %d formats, want 1", len(jobs))
	}
	num := fmt.Sprintf("%06d", e.lic.TagNumber)
	if !bytes.HasPrefix(jobs[0].Data, []byte("^XA")) || !bytes.Contains(jobs[0].Data, []byte(num)) {
		t.Errorf("label %.80q lacks ^XA or the number %s", jobs[0].Data, num)
	}
}

func TestRunOnceFails(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		species service.Species
		j       string
		status  zpl.HostStatus
		want    string
	}{
		{"paper out", service.Dog, "minneapolis", func() zpl.HostStatus { s := zplsim.ReadyStatus; s.PaperOut = true; return s }(), "paper"},
		{"no design", service.Dog, "nowhere", zplsim.ReadyStatus, "no tag design"},
		{"species not on the design", service.Ferret, "minneapolis", zplsim.ReadyStatus, "ferret"},
	} {
		e := newEnv(t, tc.species, tc.j)
		sim, dev := printer(t, tc.status)
		r, _ := printjobs.New(&printjobs.Opts{Tagger: e.tagger, Printer: dev})
		j := &service.Job{Kind: service.JobPrint, LicenceID: e.lic.ID, Reason: "new"}
		e.store.CreateJob(ctx, j)
		if did, err := r.RunOnce(ctx); !did || err != nil {
			t.Fatalf("%s: RunOnce = %v, %v, want true, nil", tc.name, did, err)
		}
		got, _ := e.store.FindJobByID(ctx, j.ID)
		if got.State != service.JobFailed || !strings.Contains(strings.ToLower(got.Error), tc.want) {
			t.Errorf("%s: job %s %q, want failed with %q", tc.name, got.State, got.Error, tc.want)
		}
		if n := len(sim.Jobs()); n != 0 {
			t.Errorf("%s: printer got %d formats, want 0", tc.name, n)
		}
	}
}

// TestRun runs the queue until a queued job is done, woken by Wake.
func TestRun(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e := newEnv(t, service.Cat, "minneapolis")
	sim, dev := printer(t, zplsim.ReadyStatus)
	r, _ := printjobs.New(&printjobs.Opts{Tagger: e.tagger, Printer: dev, Poll: time.Hour})
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	j := &service.Job{Kind: service.JobPrint, LicenceID: e.lic.ID, Reason: "new"}
	e.store.CreateJob(ctx, j)
	r.Wake()
	for len(sim.Jobs()) == 0 && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	for ctx.Err() == nil {
		if got, _ := e.store.FindJobByID(ctx, j.ID); got.State == service.JobDone {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v, want context.Canceled", err)
	}
	if got, _ := e.store.FindJobByID(context.Background(), j.ID); got.State != service.JobDone {
		t.Errorf("job state %s, want done", got.State)
	}
	if st := r.Status(context.Background()); !st.Ready || st.State != "ready" {
		t.Errorf("Status = %+v, want ready", st)
	}
}
