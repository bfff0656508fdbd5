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

	"github.com/chipdesk/chipdesk/drivers/printers/zpl"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/grblsim"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/zplsim"
	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/licensing"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
	"github.com/chipdesk/chipdesk/tags"
)

// runPrintCmd runs "chipdesk print ARGS..." and returns status, stdout, stderr.
func runPrintCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runPrintIn(t, "", args...)
}

// runPrintIn is runPrintCmd with stdin, the answers of the person at the
// terminal.
func runPrintIn(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &cmdline.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Now: time.Now}
	code := run(context.Background(), e, append(append([]string{"print"}, args...), "--keys", ""))
	return code, out.String(), errb.String()
}

// printDB makes a database with one licensed dog and returns its path
// and the licence.
func printDB(t *testing.T) (string, *service.Licence) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "chipdesk.db")
	db, err := sqlite.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	o := &service.Owner{Name: "Ada Lund"}
	a := &service.Animal{Name: "Rex", Species: service.Dog}
	l := &service.Licence{Jurisdiction: "minneapolis", IssuedOn: service.MustDate("2026-03-15"), ExpiresOn: service.MustDate("2027-03-31")}
	for _, err := range []error{db.CreateOwner(ctx, o), func() error { a.OwnerID = o.ID; return db.CreateAnimal(ctx, a) }(),
		func() error { l.AnimalID = a.ID; return db.CreateLicence(ctx, l) }(), approveDesigns(ctx, db)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return path, l
}

func TestPrintLicence(t *testing.T) {
	t.Parallel()
	db, l := printDB(t)
	sim, err := zplsim.Listen(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	previews := t.TempDir()
	id := fmt.Sprint(l.ID)
	dev := "zpl:" + sim.Addr()

	sim.SetStatus(func(st *zpl.HostStatus) { st.HeadOpen = true })
	code, out, errs := runPrintCmd(t, "licence", id, "--db", db, "--device", dev, "--previews", previews)
	if code != 1 || !strings.Contains(errs, "job 1 failed") || !strings.Contains(errs, "head open") {
		t.Fatalf("print licence on an open printer = %d\n%s%s; want 1 and the fault", code, out, errs)
	}
	sim.SetStatus(func(st *zpl.HostStatus) { st.HeadOpen = false })
	code, out, errs = runPrintCmd(t, "reprint", "1", "--db", db, "--device", dev, "--previews", previews)
	if code != 0 || !strings.Contains(out, "job 1 done") {
		t.Fatalf("print reprint = %d\n%s%s; want job 1 done", code, out, errs)
	}
	labels := sim.Jobs()
	if len(labels) != 1 || !bytes.Contains(labels[0].Data, fmt.Appendf(nil, "NO. %06d", l.TagNumber)) {
		t.Fatalf("printer got %d labels, want one with tag %d", len(labels), l.TagNumber)
	}
	if _, err := os.Stat(filepath.Join(previews, fmt.Sprintf("mpls-2026-%06d.png", l.TagNumber))); err != nil {
		t.Errorf("preview: %v", err)
	}
	code, _, errs = runPrintCmd(t, "licence", id, "--db", db)
	if code != 0 || !strings.Contains(errs, "already has job 1") {
		t.Errorf("print licence again = %d %s; want the existing job (one tag per licence)", code, errs)
	}
	code, out, _ = runPrintCmd(t, "list", "--db", db, "--state", "done")
	if code != 0 || !strings.Contains(out, dev) || !strings.Contains(out, "done") {
		t.Errorf("print list = %d\n%s; want the done job on %s", code, out, dev)
	}
	// Queued and queued again, each once in the audit log, by the
	// command; the repeated queue was no change.
	st, err := openStore(context.Background(), db, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ent := "job"
	evs, _, err := st.FindAuditEvents(context.Background(), service.AuditFilter{Entity: &ent})
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, e := range evs {
		if e.Actor != "chipdesk print" || e.EntityID != 1 {
			t.Errorf("job event %+v, want job 1 by chipdesk print", e)
		}
		n[e.Action]++
	}
	if n["job.create"] != 1 || n["job.reprint"] != 1 || len(evs) != 2 {
		t.Errorf("job events %v, want one job.create and one job.reprint", n)
	}
}

func TestPrintBatchProgress(t *testing.T) {
	t.Parallel()
	db, l := printDB(t)
	sim, err := grblsim.Start(&grblsim.Opts{LaserMode: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	args := []string{"batch", "--db", db, "--jurisdiction", "minneapolis", "--year", "2026", "--count", "3",
		"--key", "office-2026", "--device", "grbl:" + sim.TTY() + ",speed=3000"}
	code, out, errs := runPrintIn(t, "\n\n", args...)
	first := l.TagNumber + 1
	if code != 0 || !strings.Contains(out, fmt.Sprintf("tags %d-%d", first, first+2)) || !strings.Contains(out, "batch 1 done") {
		t.Fatalf("print batch = %d\n%s%s; want tags %d-%d done", code, out, errs, first, first+2)
	}
	t.Logf("stderr:\n%s", errs)
	if !strings.Contains(errs, "[##############################] 3/3") || !strings.Contains(errs, "] 1/3") {
		t.Errorf("progress bar on stderr = %q", errs)
	}
	if !strings.Contains(errs, fmt.Sprintf("load the blank for tag %d", first+2)) {
		t.Errorf("no prompt for the third blank on stderr: %q", errs)
	}
	code, out, errs = runPrintCmd(t, args...)
	if code != 0 || !strings.Contains(errs, "no new numbers reserved") || !strings.Contains(out, fmt.Sprintf("tags %d-%d", first, first+2)) {
		t.Errorf("print batch with the same key = %d\n%s%s; want the same batch", code, out, errs)
	}
}

func TestPrintUsage(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"no subcommand", nil},
		{"unknown subcommand", []string{"stamp"}},
		{"licence without id", []string{"licence"}},
		{"bad id", []string{"licence", "x"}},
		{"batch without count", []string{"batch", "--jurisdiction", "minneapolis", "--year", "2026"}},
		{"bad device", []string{"licence", "1", "--device", "epson:1.2.3.4"}},
		{"engrave on a printer", []string{"licence", "1", "--engrave", "--device", "zpl:127.0.0.1:1"}},
		{"bad state", []string{"list", "--state", "lost"}},
		{"run without a device", []string{"run"}},
		{"two devices for one licence", []string{"licence", "1", "--device", "zpl:a", "--device", "zpl:b"}},
	} {
		if code, _, errs := runPrintCmd(t, tt.args...); code != 2 {
			t.Errorf("%s: print %v = %d %s, want 2", tt.name, tt.args, code, errs)
		}
	}
}

// TestDemoPrinting: the demo's simulated printers are serve's --printer
// wiring; the seeded licences' tags are queued and made, with previews.
func TestDemoPrinting(t *testing.T) {
	t.Parallel()
	db, l := printDB(t)
	dir := t.TempDir()
	var errb syncBuffer
	e := &cmdline.Env{Stdout: &bytes.Buffer{}, Stderr: &errb, Now: time.Now}
	cfg := defaultConfig()
	cfg.DB, cfg.Listen = db, "127.0.0.1:0"
	cfg.DevKeys = true // as the demo
	defer demoPrinters(e, &cfg, dir)()
	if len(cfg.Printers) != 2 || cfg.Previews == "" {
		t.Fatalf("demoPrinters set printers %q previews %q; stderr: %s", cfg.Printers, cfg.Previews, errb.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := openApp(ctx, &cfg, cfg.logger(&errb), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	if err := a.listen(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.run(ctx) }()
	demoQueueTags(ctx, e, a)
	png := filepath.Join(cfg.Previews, fmt.Sprintf("mpls-2026-%06d.png", l.TagNumber))
	var js []*service.Job
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if js, _, err = a.store.FindJobs(ctx, service.JobFilter{}); err == nil && len(js) == 1 && js[0].State == service.JobDone {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run = %v", err)
	}
	if len(js) != 1 || js[0].State != service.JobDone || js[0].Device != "demo-zebra" {
		t.Fatalf("jobs %+v, want the seeded licence's tag done on demo-zebra\nstderr: %s", js, errb.String())
	}
	if _, err := os.Stat(png); err != nil {
		t.Fatalf("demo preview: %v\nstderr: %s", err, errb.String())
	}
	if strings.Contains(errb.String(), "demo: printing:") {
		t.Errorf("demo printing reported a problem: %s", errb.String())
	}
}

// TestPrintDuplicate_64_40: a lost tag is replaced by a duplicate licence
// with the $5 fee of the rules and a new number; the old licence gets no
// second tag, and a second duplicate for the same loss is refused.
func TestPrintDuplicate_64_40(t *testing.T) {
	t.Parallel()
	db, l := printDB(t)
	sim, err := zplsim.Listen(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	dev := "zpl:" + sim.Addr()
	id := fmt.Sprint(l.ID)
	if code, out, errs := runPrintCmd(t, "duplicate", id, "--reason", "misplaced", "--db", db); code != 2 {
		t.Errorf("duplicate for a reason 64.40 does not allow = %d %s%s, want 2", code, out, errs)
	}
	code, out, errs := runPrintCmd(t, "duplicate", id, "--reason", "lost", "--db", db, "--device", dev)
	newTag := l.TagNumber + 1
	if code != 0 || !strings.Contains(out, fmt.Sprintf("replaces licence %d (tag %d, lost): tag %d, fee $5.00", l.ID, l.TagNumber, newTag)) ||
		!strings.Contains(out, "done") {
		t.Fatalf("print duplicate = %d\n%s%s; want the duplicate's tag %d made for $5.00", code, out, errs, newTag)
	}
	labels := sim.Jobs()
	if len(labels) != 1 || !bytes.Contains(labels[0].Data, fmt.Appendf(nil, "NO. %06d", newTag)) {
		t.Fatalf("printer got %d labels, want the duplicate's tag %d", len(labels), newTag)
	}
	if code, out, errs := runPrintCmd(t, "duplicate", id, "--reason", "lost", "--db", db); code != 1 {
		t.Errorf("second duplicate of the same licence = %d %s%s, want 1", code, out, errs)
	}
	if code, out, errs := runPrintCmd(t, "licence", id, "--db", db); code != 1 || !strings.Contains(errs, "replaced") {
		t.Errorf("tag of the replaced licence = %d %s%s, want 1", code, out, errs)
	}
}

// TestPrintBatchPauseResume: nobody answers at the terminal, so the
// engraved batch pauses after its first blank; "print resume" goes on.
func TestPrintBatchPauseResume(t *testing.T) {
	t.Parallel()
	db, _ := printDB(t)
	sim, err := grblsim.Start(&grblsim.Opts{LaserMode: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	dev := "grbl:" + sim.TTY() + ",speed=6000"
	code, out, errs := runPrintCmd(t, "batch", "--db", db, "--jurisdiction", "minneapolis", "--year", "2026", "--count", "2", "--device", dev)
	if code != 1 || !strings.Contains(errs, "batch 1 failed: paused") {
		t.Fatalf("batch without an operator = %d\n%s%s; want 1, paused", code, out, errs)
	}
	code, out, errs = runPrintCmd(t, "resume", "1", "--db", db, "--device", dev)
	if code != 0 || !strings.Contains(out, "batch 1 done") {
		t.Fatalf("print resume = %d\n%s%s; want batch 1 done", code, out, errs)
	}
}

// TestPrintRun: "print run" makes what others queued (a licence's tag
// queued without a device, as the pages and the API do) until stopped.
func TestPrintRun(t *testing.T) {
	t.Parallel()
	db, l := printDB(t)
	sim, err := zplsim.Listen(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	if code, out, errs := runPrintCmd(t, "licence", fmt.Sprint(l.ID), "--db", db); code != 0 || !strings.Contains(out, "queued") {
		t.Fatalf("print licence without a device = %d %s%s, want the job queued", code, out, errs)
	}
	var out, errb bytes.Buffer
	e := &cmdline.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Now: time.Now}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, e, []string{"print", "run", "--db", db, "--keys", "", "--device", "zpl:" + sim.Addr() + ",name=front"})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for len(sim.Jobs()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("print run = %d\n%s", code, errb.String())
	}
	if len(sim.Jobs()) != 1 || !strings.Contains(out.String(), fmt.Sprintf("job 1 minneapolis tag %d on front: done", l.TagNumber)) {
		t.Errorf("print run made %d labels, said:\n%s", len(sim.Jobs()), out.String())
	}
}

// approveDesigns approves the built-in designs of this year and the
// next, as an administrator does on the admin page before any tag is
// made (licensing.DesignApproved).
func approveDesigns(ctx context.Context, st service.AuditService) error {
	ds, err := tags.LoadDesigns("")
	if err != nil {
		return err
	}
	y := time.Now().Year()
	return licensing.ApproveAll(ctx, st, ds, "test-admin", time.Now(), 2026, 2027, y, y+1)
}

// TestPrintBatchChecksFirst: a batch whose folder, device, design or
// jurisdiction is wrong is refused before any number is reserved.
func TestPrintBatchChecksFirst(t *testing.T) {
	t.Parallel()
	db, _ := printDB(t)
	base := []string{"batch", "--db", db, "--year", "2026", "--count", "3"}
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"previews folder missing", []string{"--jurisdiction", "minneapolis", "--previews", filepath.Join(t.TempDir(), "nope")}, 2, "--previews"},
		{"designs folder missing", []string{"--jurisdiction", "MPLS", "--designs", filepath.Join(t.TempDir(), "nope")}, 2, "--designs"},
		{"unknown jurisdiction", []string{"--jurisdiction", "Gotham"}, 2, "Gotham"},
		{"no design for the year", []string{"--jurisdiction", "Minneapolis", "--year", "1999"}, 2, "design"},
		{"device does not open", []string{"--jurisdiction", "MPLS", "--device", "grbl:" + filepath.Join(t.TempDir(), "ttyNone")}, 1, "ttyNone"},
	} {
		code, _, errs := runPrintCmd(t, append(append([]string{}, base...), tt.args...)...)
		if code != tt.code || !strings.Contains(errs, tt.want) {
			t.Errorf("%s: exit %d, %q; want %d naming %q", tt.name, code, errs, tt.code, tt.want)
		}
	}
	if code, out, errs := runPrintCmd(t, "list", "--db", db); code != 0 || strings.Contains(out, "BATCH") {
		t.Errorf("after refused batches: exit %d, list %q, %s; want no batch reserved", code, out, errs)
	}
}
