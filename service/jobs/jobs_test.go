package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/printers"
	"github.com/chipdesk/chipdesk/drivers/printers/zpl"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/grblsim"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/zplsim"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
	"github.com/chipdesk/chipdesk/tags"
	"github.com/chipdesk/chipdesk/tags/check"
)

// env is one test's database, orders and licensed dog.
type env struct {
	path    string
	store   *sqlite.DB
	orders  *jobs.Orders
	animal  *service.Animal
	licence *service.Licence
}

func newEnv(t testing.TB) *env {
	t.Helper()
	e := &env{path: filepath.Join(t.TempDir(), "chipdesk.db")}
	e.reopen(t)
	ctx := context.Background()
	// An administrator approved the designs (licensing.DesignApproved).
	must(t, e.orders.ApproveAll(ctx, "test-admin", time.Now(), 2026, 2027))
	o := &service.Owner{Name: "Ada Lund", City: "Minneapolis", State: "MN"}
	must(t, e.store.CreateOwner(ctx, o))
	e.animal = &service.Animal{OwnerID: o.ID, Name: "Rex", Species: service.Dog, Altered: true}
	must(t, e.store.CreateAnimal(ctx, e.animal))
	e.licence = e.newLicence(t)
	return e
}

func (e *env) newLicence(t testing.TB) *service.Licence {
	t.Helper()
	// Each licence is another animal's: one active licence per animal
	// and term.
	a := *e.animal
	a.ID = 0
	must(t, e.store.CreateAnimal(context.Background(), &a))
	l := &service.Licence{AnimalID: a.ID, Jurisdiction: "minneapolis", IssuedOn: service.MustDate("2026-03-15"),
		ExpiresOn: service.MustDate("2027-03-31"), FeeCents: 3500}
	must(t, e.store.CreateLicence(context.Background(), l))
	return l
}

// reopen opens the database file again, as a restarted chipdesk does.
func (e *env) reopen(t testing.TB) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), e.path, nil)
	if err != nil {
		t.Fatalf("sqlite.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	e.store = db
	rs, err := rules.Embedded()
	must(t, err)
	ds, err := tags.LoadDesigns("")
	must(t, err)
	e.orders = &jobs.Orders{Store: db, Rules: rs, Designs: ds, Keys: check.DevelopmentKeys()}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func zplPrinter(t testing.TB, o *zplsim.Opts) (*zplsim.Printer, *jobs.Device) {
	t.Helper()
	if o == nil {
		o = &zplsim.Opts{Status: zplsim.ReadyStatus}
	}
	sim, err := zplsim.Listen(o)
	must(t, err)
	t.Cleanup(func() { sim.Close() })
	sp, err := jobs.ParseSpec("zpl:" + sim.Addr() + ",name=counter-zebra")
	must(t, err)
	d, err := jobs.Open(context.Background(), sp)
	must(t, err)
	t.Cleanup(func() { d.Close() })
	return sim, d
}

func newWorker(t *testing.T, e *env, o *jobs.Opts, devs ...*jobs.Device) *jobs.Worker {
	t.Helper()
	if o == nil {
		o = &jobs.Opts{}
	}
	o.Orders = e.orders
	r, err := jobs.New(devs, o)
	must(t, err)
	return r
}

// labelNumber is the register number line of a printed label.
func hasNumber(zpl []byte, n int) bool {
	return strings.Contains(string(zpl), fmt.Sprintf("NO. %06d", n))
}

func TestPrintLicenceTag_64_30(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	sim, dev := zplPrinter(t, nil)
	previews := t.TempDir()
	var evs []jobs.Event
	r := newWorker(t, e, &jobs.Opts{Previews: previews, OnEvent: func(ev jobs.Event) { evs = append(evs, ev) }}, dev)

	j, created, err := e.orders.Queue(ctx, e.licence.ID, service.JobPrint)
	must(t, err)
	if !created || j.State != service.JobQueued || j.Reason != jobs.ReasonNew {
		t.Fatalf("Queue = %+v created %v", j, created)
	}
	again, created, err := e.orders.Queue(ctx, e.licence.ID, service.JobEngrave)
	must(t, err)
	if created || again.ID != j.ID {
		t.Fatalf("Queue(same licence again) = job %d created %v, want job %d: one tag per licence", again.ID, created, j.ID)
	}
	did, err := r.RunOnce(ctx, dev)
	if err != nil || !did {
		t.Fatalf("RunOnce = %v, %v; want true, nil", did, err)
	}
	got, err := e.store.FindJobByID(ctx, j.ID)
	must(t, err)
	if got.State != service.JobDone || got.Device != "counter-zebra" || got.Attempts != 1 || got.Error != "" {
		t.Fatalf("job after RunOnce = %+v, want done on counter-zebra", got)
	}
	labels := sim.Jobs()
	if len(labels) != 1 || !hasNumber(labels[0].Data, e.licence.TagNumber) {
		t.Fatalf("printer got %d labels, want one with NO. %06d", len(labels), e.licence.TagNumber)
	}
	if _, err := os.Stat(filepath.Join(previews, fmt.Sprintf("mpls-2026-%06d.png", e.licence.TagNumber))); err != nil {
		t.Errorf("preview: %v", err)
	}
	if len(evs) != 2 || evs[0].State != service.JobSent || evs[1].State != service.JobDone || evs[1].Tag != e.licence.TagNumber {
		t.Errorf("events = %+v, want sent then done for tag %d", evs, e.licence.TagNumber)
	}
	if did, err := r.RunOnce(ctx, dev); did || err != nil {
		t.Errorf("RunOnce on an empty queue = %v, %v; want false, nil", did, err)
	}
	if _, err := e.orders.Reprint(ctx, j.ID); service.ErrorCode(err) != service.ECONFLICT {
		t.Errorf("Reprint(done job) = %v, want conflict: a made tag is replaced by a duplicate (64.40)", err)
	}
}

// TestFaultThenReprint: a printer reporting paper out (~HS) gets nothing,
// the job fails with the fault, and the reprint makes the same number.
func TestFaultThenReprint(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	sim, dev := zplPrinter(t, nil)
	r := newWorker(t, e, nil, dev)
	sim.SetStatus(func(st *zpl.HostStatus) { st.PaperOut = true })
	j, _, err := e.orders.Queue(ctx, e.licence.ID, service.JobPrint)
	must(t, err)
	_, err = r.RunOnce(ctx, dev)
	must(t, err)
	got, err := e.store.FindJobByID(ctx, j.ID)
	must(t, err)
	if got.State != service.JobFailed || !strings.Contains(got.Error, "paper out") {
		t.Fatalf("job on a printer out of paper = %+v, want failed with the fault", got)
	}
	if n := len(sim.Jobs()); n != 0 {
		t.Fatalf("a faulted printer got %d labels, want none", n)
	}
	sim.SetStatus(func(st *zpl.HostStatus) { st.PaperOut = false })
	if _, err := e.orders.Reprint(ctx, j.ID); err != nil {
		t.Fatal(err)
	}
	_, err = r.RunOnce(ctx, dev)
	must(t, err)
	got, err = e.store.FindJobByID(ctx, j.ID)
	must(t, err)
	labels := sim.Jobs()
	if got.State != service.JobDone || got.Attempts != 2 || len(labels) != 1 || !hasNumber(labels[0].Data, e.licence.TagNumber) {
		t.Fatalf("reprint: job %+v, %d labels; want done after 2 attempts with tag %d", got, len(labels), e.licence.TagNumber)
	}
	assertOneNumber(t, e)
}

// assertOneNumber checks the counter handed out only the licence's number.
func assertOneNumber(t *testing.T, e *env) {
	t.Helper()
	year := 2026
	ls, n, err := e.store.FindLicences(context.Background(), service.LicenceFilter{Year: &year})
	must(t, err)
	if n != 1 || ls[0].TagNumber != e.licence.TagNumber {
		t.Fatalf("licences of 2026 = %d, want only licence %d with tag %d", n, e.licence.ID, e.licence.TagNumber)
	}
}

// stallPrinter sends the label and then waits for release before it
// returns: the process "dies" in between.
type stallPrinter struct {
	printers.Printer
	sent    chan struct{}
	release chan struct{}
}

func (p *stallPrinter) Print(ctx context.Context, l printers.Label) error {
	err := p.Printer.Print(ctx, l)
	close(p.sent)
	<-p.release
	return err
}

// TestCrashBetweenSentAndDone: the database is closed while the label is
// at the printer, so "done" is never written. After a restart on the
// same file the job is recovered as failed (never a second tag number),
// reprinted with the same number, and completes once.
func TestCrashBetweenSentAndDone(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	sim, dev := zplPrinter(t, nil)
	stall := &stallPrinter{Printer: dev.Printer, sent: make(chan struct{}), release: make(chan struct{})}
	crashing := &jobs.Device{Spec: dev.Spec, Printer: stall}
	r1 := newWorker(t, e, &jobs.Opts{Poll: time.Hour}, crashing)
	j, _, err := e.orders.Queue(ctx, e.licence.ID, service.JobPrint)
	must(t, err)

	rctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); r1.Run(rctx) }()
	<-stall.sent
	must(t, e.store.Close()) // the crash: nothing more reaches the file
	close(stall.release)
	stop()
	wg.Wait()

	e.reopen(t)
	got, err := e.store.FindJobByID(ctx, j.ID)
	must(t, err)
	if got.State != service.JobSent {
		t.Fatalf("job after the crash = %+v, want still sent", got)
	}
	r2 := newWorker(t, e, nil, dev)
	n, err := r2.Recover(ctx)
	must(t, err)
	got, err = e.store.FindJobByID(ctx, j.ID)
	must(t, err)
	want := fmt.Sprintf("reuses tag %d", e.licence.TagNumber)
	if n != 1 || got.State != service.JobFailed || !strings.Contains(got.Error, "interrupted") || !strings.Contains(got.Error, want) {
		t.Fatalf("Recover = %d, job %+v; want it failed as interrupted, %q", n, got, want)
	}
	if _, err := e.orders.Reprint(ctx, j.ID); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		_, err = r2.RunOnce(ctx, dev)
		must(t, err)
	}
	got, err = e.store.FindJobByID(ctx, j.ID)
	must(t, err)
	if got.State != service.JobDone || got.Attempts != 2 {
		t.Fatalf("job after reprint = %+v, want done after 2 attempts", got)
	}
	labels := sim.Jobs()
	if len(labels) != 2 {
		t.Fatalf("printer got %d labels, want 2 (the interrupted one and the reprint)", len(labels))
	}
	for _, l := range labels {
		if !hasNumber(l.Data, e.licence.TagNumber) {
			t.Fatalf("label %q does not carry tag %d", l.Data, e.licence.TagNumber)
		}
	}
	assertOneNumber(t, e)
	// A second restart finds nothing to recover.
	if n, err := newWorker(t, e, nil, dev).Recover(ctx); n != 0 || err != nil {
		t.Fatalf("second Recover = %d, %v; want 0", n, err)
	}
}

// grblEngraver is a controller set up for a laser ($32=1) and its
// device.
func grblEngraver(t *testing.T, so *grblsim.Opts, opts string) (*grblsim.Sim, *jobs.Device) {
	t.Helper()
	if so == nil {
		so = &grblsim.Opts{}
	}
	so.LaserMode = true
	sim, err := grblsim.Start(so)
	must(t, err)
	t.Cleanup(func() { sim.Close() })
	sp, err := jobs.ParseSpec("grbl:" + sim.TTY() + opts)
	must(t, err)
	d, err := jobs.Open(context.Background(), sp)
	must(t, err)
	t.Cleanup(func() { d.Close() })
	return sim, d
}

// TestBatchEngraveAlarmResume: a year's batch of pre-numbered tags is
// engraved; an alarm stops it with the alarm on the batch, and the
// resumed batch goes on from the interrupted tag with the same numbers.
func TestBatchEngraveAlarmResume(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	// The alarm (a limit switch, ALARM:1) comes 100 lines into the third
	// tag's engraving.
	var (
		mu    sync.Mutex
		armed bool
		lines int
		sim   *grblsim.Sim
	)
	fail := func(string) int {
		mu.Lock()
		defer mu.Unlock()
		if armed {
			if lines++; lines == 100 {
				go sim.Alarm(1)
			}
		}
		return 0
	}
	sim, dev := grblEngraver(t, &grblsim.Opts{Fail: fail}, ",power=0.5,speed=3000")
	r := newWorker(t, e, &jobs.Opts{OnEvent: func(ev jobs.Event) {
		mu.Lock()
		defer mu.Unlock()
		armed = armed || (ev.Done == 2 && ev.State == service.JobSent)
	}, NextBlank: func(context.Context, string, int, int) error { return nil }}, dev)
	b, created, err := e.orders.QueueBatch(ctx, jobs.BatchRequest{Kind: service.JobEngrave, Jurisdiction: "minneapolis",
		Year: 2026, Count: 4, Species: "dog", Key: "office/2026/a"})
	must(t, err)
	if !created || b.First != e.licence.TagNumber+1 || b.Count() != 4 {
		t.Fatalf("QueueBatch = %+v, want 4 tags after licence tag %d", b, e.licence.TagNumber)
	}
	_, err = r.RunOnce(ctx, dev)
	must(t, err)
	got, err := e.store.FindTagBatchByID(ctx, b.ID)
	must(t, err)
	if got.State != service.JobFailed || got.Done != 2 || !strings.Contains(got.Error, fmt.Sprintf("tag %d", b.First+2)) {
		t.Fatalf("batch after alarm = %+v, want failed at tag %d with 2 made", got, b.First+2)
	}
	if !strings.Contains(got.Error, "ALARM:1") {
		t.Errorf("batch error %q does not carry the alarm", got.Error)
	}
	must(t, dev.Engraver.Unlock(ctx))
	if _, err := e.orders.ResumeBatch(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	_, err = r.RunOnce(ctx, dev)
	must(t, err)
	got, err = e.store.FindTagBatchByID(ctx, b.ID)
	must(t, err)
	if got.State != service.JobDone || got.Done != 4 || got.First != b.First || got.Last != b.Last {
		t.Fatalf("resumed batch = %+v, want done, 4 of %d-%d", got, b.First, b.Last)
	}
	l := e.newLicence(t)
	if l.TagNumber != b.Last+1 {
		t.Errorf("licence after the batch got tag %d, want %d", l.TagNumber, b.Last+1)
	}
}

func TestQueueRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	dup := &service.Licence{AnimalID: e.animal.ID, Jurisdiction: "minneapolis", Year: 2026, IssuedOn: service.MustDate("2026-04-01"),
		ExpiresOn: e.licence.ExpiresOn, FeeCents: 500, FeeCode: "duplicate", Replaces: e.licence.ID, ReplaceReason: service.TagLost}
	must(t, e.store.CreateLicence(ctx, dup))
	tests := []struct {
		name    string
		licence int64
		kind    service.JobKind
		code    string
	}{
		{"replaced licence_64_40", e.licence.ID, service.JobPrint, service.ECONFLICT},
		{"unknown licence", 999, service.JobPrint, service.ENOTFOUND},
		{"bad kind", dup.ID, "stamp", service.EINVALID},
	}
	for _, tt := range tests {
		_, _, err := e.orders.Queue(ctx, tt.licence, tt.kind)
		if got := service.ErrorCode(err); got != tt.code {
			t.Errorf("%s: Queue(%d, %s) = %v, want code %s", tt.name, tt.licence, tt.kind, err, tt.code)
		}
	}
	j, _, err := e.orders.Queue(ctx, dup.ID, service.JobPrint)
	must(t, err)
	if j.Reason != jobs.ReasonDuplicate {
		t.Errorf("duplicate licence's job reason = %q, want %q (64.40)", j.Reason, jobs.ReasonDuplicate)
	}
}

// TestDemo: the demo queue prints every active licence's tag on the
// simulated printer and leaves a PNG of each.
func TestDemo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	second := e.newLicence(t)
	sim, err := zplsim.Listen(nil)
	must(t, err)
	defer sim.Close()
	dir := filepath.Join(t.TempDir(), "previews")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- jobs.Demo(ctx, jobs.DemoOpts{Orders: e.orders, Printer: sim.Addr(), Previews: dir, Poll: 10 * time.Millisecond})
	}()
	deadline := time.Now().Add(testtime.Scale(10 * time.Second))
	for len(sim.Jobs()) < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Demo = %v", err)
	}
	labels := sim.Jobs()
	if len(labels) != 2 || !hasNumber(labels[0].Data, e.licence.TagNumber) || !hasNumber(labels[1].Data, second.TagNumber) {
		t.Fatalf("demo printed %d labels, want tags %d and %d", len(labels), e.licence.TagNumber, second.TagNumber)
	}
	for _, l := range []*service.Licence{e.licence, second} {
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("mpls-2026-%06d.png", l.TagNumber))); err != nil {
			t.Errorf("preview of tag %d: %v", l.TagNumber, err)
		}
	}
}

// stallAt is a printer that "dies" at its nth label: it sends it and
// then waits for release before returning.
type stallAt struct {
	printers.Printer
	n       int
	count   int
	sent    chan struct{}
	release chan struct{}
}

func (p *stallAt) Print(ctx context.Context, l printers.Label) error {
	err := p.Printer.Print(ctx, l)
	if p.count++; p.count == p.n {
		close(p.sent)
		<-p.release
	}
	return err
}

// TestBatchCrashResume: chipdesk dies while the second tag of a batch is
// at the printer. After a restart the batch is recovered as failed at
// that tag with one made, resumes from it with the same numbers, and no
// number is reserved twice.
func TestBatchCrashResume(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	sim, dev := zplPrinter(t, nil)
	stall := &stallAt{Printer: dev.Printer, n: 2, sent: make(chan struct{}), release: make(chan struct{})}
	r1 := newWorker(t, e, &jobs.Opts{Poll: time.Hour}, &jobs.Device{Spec: dev.Spec, Printer: stall})
	b, _, err := e.orders.QueueBatch(ctx, jobs.BatchRequest{Kind: service.JobPrint, Jurisdiction: "minneapolis", Year: 2026, Count: 3})
	must(t, err)
	rctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); r1.Run(rctx) }()
	<-stall.sent
	must(t, e.store.Close())
	close(stall.release)
	stop()
	wg.Wait()

	e.reopen(t)
	r2 := newWorker(t, e, nil, dev)
	if n, err := r2.Recover(ctx); n != 1 || err != nil {
		t.Fatalf("Recover = %d, %v; want 1", n, err)
	}
	got, err := e.store.FindTagBatchByID(ctx, b.ID)
	must(t, err)
	next := fmt.Sprintf("tag %d", b.First+1)
	if got.State != service.JobFailed || got.Done != 1 || !strings.Contains(got.Error, next) || !strings.Contains(got.Error, "no new numbers") {
		t.Fatalf("recovered batch = %+v, want failed at %s with 1 made", got, next)
	}
	_, err = e.orders.ResumeBatch(ctx, b.ID)
	must(t, err)
	_, err = r2.RunOnce(ctx, dev)
	must(t, err)
	got, err = e.store.FindTagBatchByID(ctx, b.ID)
	must(t, err)
	if got.State != service.JobDone || got.Done != 3 || got.First != b.First || got.Last != b.Last || got.Attempts != 2 {
		t.Fatalf("resumed batch = %+v, want done, tags %d-%d, 2 attempts", got, b.First, b.Last)
	}
	// Labels: the first tag, the interrupted second, then the second
	// again and the third.
	want := []int{b.First, b.First + 1, b.First + 1, b.First + 2}
	labels := sim.Jobs()
	if len(labels) != len(want) {
		t.Fatalf("printer got %d labels, want %d", len(labels), len(want))
	}
	for i, n := range want {
		if !hasNumber(labels[i].Data, n) {
			t.Errorf("label %d does not carry tag %d", i, n)
		}
	}
	if l := e.newLicence(t); l.TagNumber != b.Last+1 {
		t.Errorf("next licence got tag %d, want %d: the batch's numbers stay reserved", l.TagNumber, b.Last+1)
	}
}

// TestShutdownMidJob: a worker stopped while the engraver works records
// the job failed as interrupted, and the laser is off.
func TestShutdownMidJob(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	_, dev := grblEngraver(t, &grblsim.Opts{BlockTime: time.Millisecond}, "")
	var once sync.Once
	rctx, stop := context.WithCancel(ctx)
	r := newWorker(t, e, &jobs.Opts{Poll: 10 * time.Millisecond, OnEvent: func(ev jobs.Event) {
		// Stopped once the machine is seen marking: mid-job, whatever
		// the machine's speed.
		if ev.State == service.JobSent && ev.Machine == "Run" {
			once.Do(stop)
		}
	}}, dev)
	j, _, err := e.orders.Queue(ctx, e.licence.ID, service.JobEngrave)
	must(t, err)
	r.Wake()
	if err := r.Run(rctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want context.Canceled", err)
	}
	got, err := e.store.FindJobByID(ctx, j.ID)
	must(t, err)
	if got.State != service.JobFailed || !strings.Contains(got.Error, "interrupted") {
		t.Fatalf("job after shutdown = %+v, want failed as interrupted", got)
	}
	st, err := dev.Engraver.Status(ctx)
	must(t, err)
	if st.LaserOn {
		t.Errorf("laser on after shutdown: %+v", st)
	}
}

// TestLaserModeNotWrittenUnasked: a controller with laser mode off
// ($32=0) gets no setting written unless the device allows it
// (laser_mode=set); the job fails saying so, and the same job run on a
// device with the option makes the tag.
func TestLaserModeNotWrittenUnasked(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	sim, err := grblsim.Start(nil)
	must(t, err)
	t.Cleanup(func() { sim.Close() })
	sp, err := jobs.ParseSpec("grbl:" + sim.TTY())
	must(t, err)
	dev, err := jobs.Open(ctx, sp)
	must(t, err)
	j, _, err := e.orders.Queue(ctx, e.licence.ID, service.JobEngrave)
	must(t, err)
	_, err = newWorker(t, e, nil, dev).RunOnce(ctx, dev)
	must(t, err)
	must(t, dev.Close())
	j, err = e.store.FindJobByID(ctx, j.ID)
	must(t, err)
	if j.State != service.JobFailed || !strings.Contains(j.Error, "$32") || !strings.Contains(j.Error, "laser_mode=set") || sim.Setting(32) != "0" {
		t.Fatalf("job = %+v, $32=%s; want failed naming $32 and laser_mode=set, $32 unchanged", j, sim.Setting(32))
	}
	sp, err = jobs.ParseSpec("grbl:" + sim.TTY() + ",laser_mode=set")
	must(t, err)
	dev, err = jobs.Open(ctx, sp)
	must(t, err)
	t.Cleanup(func() { dev.Close() })
	_, err = e.orders.Reprint(ctx, j.ID)
	must(t, err)
	_, err = newWorker(t, e, nil, dev).RunOnce(ctx, dev)
	must(t, err)
	if j, err = e.store.FindJobByID(ctx, j.ID); err != nil || j.State != service.JobDone || sim.Setting(32) != "1" {
		t.Fatalf("job with laser_mode=set = %+v, %v, $32=%s; want done, $32=1", j, err, sim.Setting(32))
	}
}

// TestDesignApprovalWhicheverDoor: no tag is queued from a design an
// administrator has not approved, a licence's nor a batch's, whichever
// door asks (the API, a page, chipdesk print all queue through Queue
// and QueueBatch); once approved, both are. Batches name their
// jurisdiction by id, name or code.
func TestDesignApprovalWhicheverDoor(t *testing.T) {
	t.Parallel()
	e := &env{path: filepath.Join(t.TempDir(), "chipdesk.db")}
	e.reopen(t)
	ctx := context.Background()
	o := &service.Owner{Name: "Ada Lund", City: "Minneapolis"}
	must(t, e.store.CreateOwner(ctx, o))
	e.animal = &service.Animal{OwnerID: o.ID, Name: "Rex", Species: service.Dog, Altered: true}
	must(t, e.store.CreateAnimal(ctx, e.animal))
	l := e.newLicence(t)
	batch := jobs.BatchRequest{Kind: service.JobEngrave, Jurisdiction: "Minneapolis", Year: 2026, Count: 3, Key: "b1"}
	if _, _, err := e.orders.Queue(ctx, l.ID, service.JobPrint); service.ErrorCode(err) != service.ECONFLICT {
		t.Errorf("Queue(unapproved design) = %v, want ECONFLICT", err)
	}
	if _, _, err := e.orders.QueueBatch(ctx, batch); service.ErrorCode(err) != service.ECONFLICT {
		t.Errorf("QueueBatch(unapproved design) = %v, want ECONFLICT", err)
	}
	must(t, e.orders.ApproveAll(ctx, "admin", time.Now(), 2026))
	if _, _, err := e.orders.Queue(ctx, l.ID, service.JobPrint); err != nil {
		t.Errorf("Queue(approved) = %v", err)
	}
	for _, j := range []string{"Minneapolis", "MPLS", "minneapolis"} {
		batch.Jurisdiction, batch.Key = j, "b-"+j
		b, _, err := e.orders.QueueBatch(ctx, batch)
		if err != nil || b.Jurisdiction != "minneapolis" {
			t.Errorf("QueueBatch(%s) = %+v, %v; want a batch of minneapolis", j, b, err)
		}
	}
	batch.Jurisdiction = "duluth"
	if _, _, err := e.orders.QueueBatch(ctx, batch); service.ErrorField(err) != "jurisdiction" {
		t.Errorf("QueueBatch(duluth) = %v, want EINVALID on jurisdiction", err)
	}
}
