package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chipdesk/chipdesk/drivers/engravers"
	"github.com/chipdesk/chipdesk/drivers/printers"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/events"
	"github.com/chipdesk/chipdesk/tags"
)

// Opts configures a Worker. Orders is required.
type Opts struct {
	Orders *Orders
	// Renderer draws the tags; nil makes one with tags.DefaultOpts.
	Renderer *tags.Renderer
	// Hub receives an Event for every change of a job or batch, its
	// Reader field set to the device name. Give the worker a hub of its
	// own: the scan stream's subscribers expect scans. Nil publishes
	// nothing.
	Hub *events.Hub
	// OnEvent, when set, is called with every event, from the device's
	// goroutine (a progress bar).
	OnEvent func(Event)
	// Previews, when set, is a folder that receives a PNG of every tag
	// made (DPI dots per inch), named JURISDICTION-YEAR-NUMBER.png.
	Previews string
	// PreviewDPI is the previews' resolution; 0 means 300.
	PreviewDPI float64
	// NextBlank is asked before each engraving of a batch after the
	// first one of a run: a person loads the next blank, or the next
	// plate of blanks, and confirms (a prompt at the terminal). Nil, or
	// an error, pauses the batch there: it is marked failed with a
	// message saying which tags to load, and Orders.ResumeBatch goes on.
	NextBlank func(ctx context.Context, device string, first, last int) error
	// Poll is how often an idle device looks at the queue; 0 means
	// DefaultPoll. Wake makes it look at once.
	Poll   time.Duration
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// DefaultPoll is how often an idle device looks at the queue.
const DefaultPoll = 2 * time.Second

// Event is a change of a job or a batch.
type Event struct {
	// Job or Batch is the id of what changed (one of them is 0).
	Job   int64            `json:"job,omitempty"`
	Batch int64            `json:"batch,omitempty"`
	Kind  service.JobKind  `json:"kind"`
	State service.JobState `json:"state"`
	// Device is the device's name.
	Device string `json:"device"`
	// Tag is the number being made, with its jurisdiction and year.
	Jurisdiction string `json:"jurisdiction"`
	Year         int    `json:"year"`
	Tag          int    `json:"tag"`
	// Done and Total count tags (a job has one).
	Done  int `json:"done"`
	Total int `json:"total"`
	// Error is the device's error when State is failed, or what a
	// person must check when it is unconfirmed or check.
	Error string `json:"error,omitempty"`
	// Machine is an engraver's state during the job ("Run", "Hold:0",
	// "Door:1"), and Held is set while the machine holds the job (a feed
	// hold or the safety door): the counter resumes or aborts it.
	Machine string    `json:"machine,omitempty"`
	Held    bool      `json:"held,omitempty"`
	At      time.Time `json:"at"`
}

// errUnconfirmed: the printer took the label over a link that gives no
// status back, so nothing confirms it printed.
var errUnconfirmed = errors.New("sent, not confirmed")

// Worker makes the queued tags on its devices: each device takes jobs
// and batches of its kind (printers print, engravers engrave) one at a
// time, in the order they were queued.
//
// State machine. A job or batch is claimed (queued → sent) in one store
// transaction before anything goes to the device, so two devices or two
// workers never make the same one; when the device finishes it is done,
// and when the device refuses or faults it is failed with the device's
// error (~HS faults, GRBL alarms, a link that hung up). A failed job is
// queued again by Orders.Reprint and makes the same tag number.
//
// Recovery. A job or batch still "sent" when the worker starts was
// interrupted (chipdesk stopped or crashed with the tag at the device):
// whether the tag came out is known only to the person at the machine.
// Recover marks it failed, saying so and naming the tag number and what
// the device reports now; it is made again only when a person asks
// (Reprint, ResumeBatch), with the same number. A batch counts every
// tag as it is made, so it resumes at the tag that was interrupted and
// never reserves new numbers.
//
// Batches. A printer makes a batch's labels one after the other. An
// engraver makes one blank at a time at its origin, or with a plate
// (Spec.PlateW) a plate of blanks at a time; between two it needs a
// person to load the next (Opts.NextBlank), and without one the batch
// pauses (failed, saying which tags to load) until it is resumed.
//
// One worker drives a device: two processes must not name the same
// device, or the second's Recover takes the first's work for
// interrupted.
type Worker struct {
	o         Opts
	devices   []*Device
	renderers map[string]*tags.Renderer // by device, for an engraver's beam
	wake      chan struct{}
}

// New returns a worker over devices; call Run to start it. The worker
// does not own the devices: the caller closes them after Run returns.
func New(devices []*Device, o *Opts) (*Worker, error) {
	if o == nil || o.Orders == nil {
		return nil, errors.New("jobs: Orders required")
	}
	r := &Worker{o: *o, devices: devices, wake: make(chan struct{}, 1)}
	names := map[string]bool{}
	for _, d := range devices {
		pr, en := d.drivers()
		if d.pending && pr == nil && en == nil {
			if d.Spec.Kind != KindZPL && d.Spec.Kind != KindBrotherQL && d.Spec.Kind != KindGRBL {
				return nil, fmt.Errorf("jobs: device %s: unknown kind %q", d, d.Spec.Kind)
			}
		} else if (pr == nil) == (en == nil) {
			return nil, fmt.Errorf("jobs: device %s needs a printer or an engraver", d)
		} else if (en != nil) != (d.Spec.JobKind() == service.JobEngrave) {
			return nil, fmt.Errorf("jobs: device %s is a %s but has the wrong driver", d, d.Spec.Kind)
		}
		if names[d.Spec.Name] {
			return nil, fmt.Errorf("jobs: two devices named %s", d.Spec.Name)
		}
		names[d.Spec.Name] = true
	}
	if r.o.Renderer == nil {
		rd, err := tags.NewRenderer(nil)
		if err != nil {
			return nil, err
		}
		r.o.Renderer = rd
	}
	r.renderers = map[string]*tags.Renderer{}
	for _, d := range devices {
		if o := d.Spec.RenderOpts(); o != nil {
			rd, err := tags.NewRenderer(o)
			if err != nil {
				return nil, fmt.Errorf("jobs: device %s: %w", d, err)
			}
			r.renderers[d.Spec.Name] = rd
		}
	}
	if r.o.Poll <= 0 {
		r.o.Poll = DefaultPoll
	}
	if r.o.PreviewDPI <= 0 {
		r.o.PreviewDPI = 300
	}
	if r.o.Now == nil {
		r.o.Now = time.Now
	}
	if r.o.Logger == nil {
		r.o.Logger = slog.New(slog.DiscardHandler)
	}
	return r, nil
}

// Wake makes idle devices look at the queue now (a job was queued).
func (r *Worker) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run recovers interrupted work (Recover), then runs every device until
// ctx is done, and returns ctx's error.
func (r *Worker) Run(ctx context.Context) error {
	if _, err := r.Recover(ctx); err != nil {
		r.o.Logger.Error("jobs: recover", "err", err)
	}
	var wg sync.WaitGroup
	wakes := make([]chan struct{}, len(r.devices))
	for i, d := range r.devices {
		wakes[i] = make(chan struct{}, 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.loop(ctx, d, wakes[i])
		}()
	}
	// Fan the one wake signal out to every device.
	for done := false; !done; {
		select {
		case <-ctx.Done():
			done = true
		case <-r.wake:
			for _, w := range wakes {
				select {
				case w <- struct{}{}:
				default:
				}
			}
		}
	}
	wg.Wait()
	return ctx.Err()
}

func (r *Worker) loop(ctx context.Context, d *Device, wake chan struct{}) {
	t := time.NewTicker(r.o.Poll)
	defer t.Stop()
	for {
		for ctx.Err() == nil {
			did, err := r.RunOnce(ctx, d)
			if err != nil && ctx.Err() == nil {
				r.o.Logger.Error("jobs: queue", "device", d.String(), "err", err)
			}
			if !did || err != nil {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-wake:
		}
	}
}

// RunOnce makes the oldest queued job of d's kind, else works through
// the oldest queued batch. It reports false when there was nothing to
// do. A tag the device refused is recorded on the job, not returned.
func (r *Worker) RunOnce(ctx context.Context, d *Device) (bool, error) {
	store := r.o.Orders.Store
	kind := d.Spec.JobKind()
	if err := d.connect(ctx); err != nil {
		return false, err
	}
	j, err := store.ClaimJob(ctx, kind, d.Spec.Name)
	if err == nil {
		return true, r.runJob(ctx, d, j)
	} else if service.ErrorCode(err) != service.ENOTFOUND {
		return false, fmt.Errorf("jobs: claim: %w", err)
	}
	b, err := store.ClaimTagBatch(ctx, kind, d.Spec.Name)
	if service.ErrorCode(err) == service.ENOTFOUND {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("jobs: claim batch: %w", err)
	}
	return true, r.runBatch(ctx, d, store, b)
}

// finalCtx is for the last write of a job: a worker stopping (ctx
// cancelled) still records what happened.
func finalCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
}

func (r *Worker) runJob(ctx context.Context, d *Device, j *service.Job) error {
	store := r.o.Orders.Store
	ev := Event{Job: j.ID, Kind: j.Kind, State: service.JobSent, Device: d.Spec.Name, Total: 1}
	var tag *tags.Tag
	l, err := store.FindLicenceByID(ctx, j.LicenceID)
	if err == nil {
		ev.Jurisdiction, ev.Year, ev.Tag = l.Jurisdiction, l.Year, l.TagNumber
		tag, err = r.o.Orders.LicenceTag(ctx, l)
	}
	if err == nil {
		r.emit(ev)
		err = r.make(ctx, d, tag, fmt.Sprintf("licence %d tag %d", l.ID, l.TagNumber), ev)
	}
	state, msg := outcome(ctx, d, err, fmt.Sprintf("tag %d", ev.Tag))
	if state == service.JobFailed {
		r.o.Logger.Warn("jobs: job failed", "job", j.ID, "device", d.String(), "err", err)
	}
	wctx, cancel := finalCtx(ctx)
	defer cancel()
	if _, err := store.UpdateJob(wctx, j.ID, service.JobUpdate{State: &state, Error: &msg}); err != nil {
		return fmt.Errorf("jobs: job %d: %w", j.ID, err)
	}
	ev.State, ev.Error = state, msg
	if state == service.JobDone {
		ev.Done = 1
	}
	r.emit(ev)
	return nil
}

func (r *Worker) runBatch(ctx context.Context, d *Device, bs service.TagBatchService, b *service.TagBatch) error {
	ev := Event{Batch: b.ID, Kind: b.Kind, State: service.JobSent, Device: d.Spec.Name,
		Jurisdiction: b.Jurisdiction, Year: b.Year, Done: b.Done, Total: b.Count()}
	var (
		err         error
		paused      string
		unconfirmed int
	)
	for next, start := b.First+b.Done, b.First+b.Done; next <= b.Last && err == nil; {
		ev.Tag = next
		var group []*tags.Tag
		if group, err = r.group(d, b, next); err != nil {
			break
		}
		last := next + len(group) - 1
		if next > start && d.Spec.JobKind() == service.JobEngrave {
			// A person puts the next blank or plate on the bed.
			if r.o.NextBlank == nil {
				paused = fmt.Sprintf("paused: tags %d-%d made; load the blanks for tags %d-%d, then resume", b.First, next-1, next, last)
				break
			}
			if nerr := r.o.NextBlank(ctx, d.Spec.Name, next, last); nerr != nil {
				paused = fmt.Sprintf("paused: tags %d-%d made; load the blanks for tags %d-%d, then resume (%v)", b.First, next-1, next, last, nerr)
				break
			}
		}
		r.emit(ev)
		if err = r.makeGroup(ctx, d, group, fmt.Sprintf("batch %d tags %d-%d", b.ID, next, last), ev); errors.Is(err, errUnconfirmed) {
			unconfirmed++ // the label went out; the batch goes on
			err = nil
		} else if err != nil {
			break
		}
		done := last - b.First + 1
		wctx, cancel := finalCtx(ctx)
		b, err = bs.UpdateTagBatch(wctx, b.ID, service.TagBatchUpdate{Done: &done})
		cancel()
		if err != nil {
			return fmt.Errorf("jobs: batch %d: %w", ev.Batch, err)
		}
		ev.Done = b.Done
		next = last + 1
		if ctx.Err() != nil && next <= b.Last {
			err = ctx.Err()
		}
	}
	state, msg := service.JobDone, ""
	switch {
	case err != nil:
		state, msg = outcome(ctx, d, err, fmt.Sprintf("tag %d", ev.Tag))
		if state == service.JobFailed {
			msg = fmt.Sprintf("tag %d: %s", ev.Tag, msg)
			r.o.Logger.Warn("jobs: batch failed", "batch", b.ID, "device", d.String(), "err", err)
		}
	case paused != "":
		state, msg = service.JobFailed, paused
	case unconfirmed > 0:
		state, msg = outcome(ctx, d, errUnconfirmed, fmt.Sprintf("tags %d-%d", b.First, b.Last))
	}
	wctx, cancel := finalCtx(ctx)
	defer cancel()
	if _, err := bs.UpdateTagBatch(wctx, b.ID, service.TagBatchUpdate{State: &state, Error: &msg}); err != nil {
		return fmt.Errorf("jobs: batch %d: %w", b.ID, err)
	}
	ev.State, ev.Error = state, msg
	r.emit(ev)
	return nil
}

// maxPlate bounds the tags laid out at once to fill one plate.
const maxPlate = 1000

// group returns the tags made in one step from tag next of batch b: a
// plate full for an engraver with a plate, else one tag.
func (r *Worker) group(d *Device, b *service.TagBatch, next int) ([]*tags.Tag, error) {
	n := 1
	if d.Spec.JobKind() == service.JobEngrave && d.Spec.PlateW > 0 {
		n = min(b.Last-next+1, maxPlate)
	}
	out := make([]*tags.Tag, 0, n)
	for i := range n {
		t, err := r.o.Orders.BatchTag(b, next+i)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	if n == 1 {
		return out, nil
	}
	sheets, err := d.Spec.layout().Place(out)
	if err != nil {
		return nil, fmt.Errorf("jobs: %s: %w", d, err)
	}
	return out[:len(sheets[0].Tags)], nil
}

// makeGroup makes one tag, or engraves a plate of tags laid out by the
// device's plate.
func (r *Worker) makeGroup(ctx context.Context, d *Device, group []*tags.Tag, name string, ev Event) error {
	if len(group) == 1 {
		return r.make(ctx, d, group[0], name, ev)
	}
	for _, t := range group {
		if err := r.preview(t); err != nil {
			return err
		}
	}
	_, en := d.drivers()
	if en == nil {
		return fmt.Errorf("jobs: %s is not connected", d)
	}
	sheets, err := d.Spec.layout().Place(group)
	if err != nil {
		return fmt.Errorf("jobs: %s: %w", d, err)
	}
	tp, err := r.renderer(d).SheetPaths(sheets[0])
	if err != nil {
		return fmt.Errorf("jobs: render: %w", err)
	}
	err = en.Engrave(ctx, d.Spec.Engraving(tp, name), r.machine(ev))
	if err != nil {
		d.linkFailed(err)
	}
	return err
}

// outcome is the state and message a job ends in after the device
// returned err: done; unconfirmed (sent over a link that gives no
// status back); check (an engraving whose end could not be confirmed:
// the tag may be complete, so a person looks before anything is made
// again); or failed.
func outcome(ctx context.Context, d *Device, err error, tag string) (service.JobState, string) {
	switch {
	case err == nil:
		return service.JobDone, ""
	case errors.Is(err, errUnconfirmed):
		return service.JobUnconfirmed, fmt.Sprintf("sent, not confirmed: %s gives no status back over this link (%s network protocol); check that %s printed",
			d, d.Spec.Kind, tag)
	case errors.Is(err, engravers.ErrUnclear):
		return service.JobCheck, fmt.Sprintf("check %s: %v; if it is complete do not engrave it again", tag, err)
	}
	return service.JobFailed, deviceError(ctx, err)
}

// deviceError is the message recorded on a failed job.
func deviceError(ctx context.Context, err error) string {
	if ctx.Err() != nil {
		return "interrupted: chipdesk stopped during the job (" + err.Error() + "); check the device, then reprint (same tag number)"
	}
	return err.Error()
}

// make renders tag for d and sends it.
func (r *Worker) make(ctx context.Context, d *Device, t *tags.Tag, name string, ev Event) error {
	if err := r.preview(t); err != nil {
		return err
	}
	pr, en := d.drivers()
	if pr == nil && en == nil {
		return fmt.Errorf("jobs: %s is not connected", d)
	}
	err := r.send(ctx, d, pr, en, t, name, ev)
	if err != nil {
		d.linkFailed(err)
	}
	return err
}

// renderer is the tag renderer of d: its own for an engraver with a
// beam width, else the worker's.
func (r *Worker) renderer(d *Device) *tags.Renderer {
	if rd := r.renderers[d.Spec.Name]; rd != nil {
		return rd
	}
	return r.o.Renderer
}

// send makes the tag once for the device: engraving paths for an
// engraver, an Artwork for a printer, which draws it in its own
// language and resolution. A printer whose link cannot confirm the job
// returns errUnconfirmed.
func (r *Worker) send(ctx context.Context, d *Device, pr printers.Printer, en engravers.Engraver, t *tags.Tag, name string, ev Event) error {
	rd := r.renderer(d)
	if en != nil {
		tp, err := rd.Paths(t)
		if err != nil {
			return fmt.Errorf("jobs: render: %w", err)
		}
		return en.Engrave(ctx, d.Spec.Engraving(tp, name), r.machine(ev))
	}
	art := rd.Artwork(t)
	if err := pr.Print(ctx, printers.Label{Art: art}); err != nil {
		return err
	}
	if s := art.Scale(); s < 1 {
		// A tape narrower than the tag: the label is not at true size.
		r.o.Logger.Info("jobs: label scaled to fit the tape", "device", d.String(), "tag", t.String(), "scale", s)
	}
	if printers.Unconfirmed(ctx, pr) {
		return errUnconfirmed
	}
	return nil
}

// machine returns the progress function of an engraving: it publishes
// ev with the machine's state whenever that changes (a hold or an open
// door shows at the counter while the job waits).
func (r *Worker) machine(ev Event) func(engravers.Progress) {
	var last string
	var held bool
	return func(p engravers.Progress) {
		if p.State == last && p.Held == held {
			return
		}
		last, held = p.State, p.Held
		e := ev
		e.Machine, e.Held = p.State, p.Held
		r.emit(e)
	}
}

// preview writes the tag's PNG to the previews folder.
func (r *Worker) preview(t *tags.Tag) error {
	if r.o.Previews == "" {
		return nil
	}
	img, err := r.o.Renderer.Image(t, r.o.PreviewDPI)
	if err != nil {
		return fmt.Errorf("jobs: preview: %w", err)
	}
	return writePNG(filepath.Join(r.o.Previews, PreviewName(t)), img)
}

// PreviewName is the file name of a tag's preview.
func PreviewName(t *tags.Tag) string {
	return fmt.Sprintf("%s-%d-%0*d.png", strings.ToLower(t.Design.Jurisdiction), t.Year, t.Design.Digits, t.Number)
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("jobs: preview: %w", err)
	}
	// An opaque white ground reads better in a file viewer.
	b := img.Bounds()
	out := image.NewRGBA(b)
	draw.Draw(out, b, image.White, image.Point{}, draw.Src)
	draw.Draw(out, b, img, b.Min, draw.Over)
	if err := png.Encode(f, out); err != nil {
		f.Close()
		return fmt.Errorf("jobs: preview: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("jobs: preview: %w", err)
	}
	return nil
}

func (r *Worker) emit(ev Event) {
	ev.At = r.o.Now()
	if r.o.OnEvent != nil {
		r.o.OnEvent(ev)
	}
	if r.o.Hub != nil {
		b, err := json.Marshal(ev)
		if err == nil {
			r.o.Hub.Publish(ev.Device, b)
		}
	}
}

// Recover marks the jobs and batches left "sent" to this worker's
// devices failed (see Worker) and returns how many it found. It never
// touches a tag number.
func (r *Worker) Recover(ctx context.Context) (int, error) {
	store := r.o.Orders.Store
	byName := map[string]*Device{}
	for _, d := range r.devices {
		byName[d.Spec.Name] = d
	}
	sent := service.JobSent
	jobs, _, err := store.FindJobs(ctx, service.JobFilter{State: &sent})
	if err != nil {
		return 0, fmt.Errorf("jobs: recover: %w", err)
	}
	n := 0
	for _, j := range jobs {
		d := byName[j.Device]
		if d == nil {
			continue
		}
		tag := "its tag"
		if l, err := store.FindLicenceByID(ctx, j.LicenceID); err == nil {
			tag = fmt.Sprintf("tag %d", l.TagNumber)
		}
		msg := fmt.Sprintf("interrupted: chipdesk stopped after sending %s to %s%s; check whether it was made, then reprint (reuses %s)",
			tag, d, r.deviceNow(ctx, d), tag)
		st := service.JobFailed
		if _, err := store.UpdateJob(ctx, j.ID, service.JobUpdate{State: &st, Error: &msg}); err != nil {
			return n, fmt.Errorf("jobs: recover job %d: %w", j.ID, err)
		}
		n++
		r.emit(Event{Job: j.ID, Kind: j.Kind, State: st, Device: d.Spec.Name, Total: 1, Error: msg})
	}
	batches, _, err := store.FindTagBatches(ctx, service.TagBatchFilter{State: &sent})
	if err != nil {
		return n, fmt.Errorf("jobs: recover: %w", err)
	}
	for _, b := range batches {
		d := byName[b.Device]
		if d == nil {
			continue
		}
		next := b.First + b.Done
		msg := fmt.Sprintf("interrupted: chipdesk stopped while making tag %d on %s (%d of %d made)%s; check tag %d, then resume from it (no new numbers)",
			next, d, b.Done, b.Count(), r.deviceNow(ctx, d), next)
		st := service.JobFailed
		if _, err := store.UpdateTagBatch(ctx, b.ID, service.TagBatchUpdate{State: &st, Error: &msg}); err != nil {
			return n, fmt.Errorf("jobs: recover batch %d: %w", b.ID, err)
		}
		n++
		r.emit(Event{Batch: b.ID, Kind: b.Kind, State: st, Device: d.Spec.Name, Jurisdiction: b.Jurisdiction,
			Year: b.Year, Tag: next, Done: b.Done, Total: b.Count(), Error: msg})
	}
	return n, nil
}

// deviceNow is what the device reports, for a recovery message.
func (r *Worker) deviceNow(ctx context.Context, d *Device) string {
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	pr, en := d.drivers()
	if pr == nil && en == nil {
		if err := d.connect(sctx); err != nil {
			return "; it is not connected (" + err.Error() + ")"
		}
		pr, en = d.drivers()
	}
	if pr != nil {
		st, err := pr.Status(sctx)
		switch {
		case err != nil:
			return "; its status cannot be read (" + err.Error() + ")"
		case !st.Ready():
			return "; it reports " + st.Faults.String()
		}
		return "; it reports ready"
	}
	st, err := en.Status(sctx)
	switch {
	case err != nil:
		return "; its status cannot be read (" + err.Error() + ")"
	case st.Alarm:
		return "; it is in alarm"
	}
	return "; it reports " + st.State
}

// Status is a device's state as the admin page shows it.
type Status struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Ready bool   `json:"ready"`
	// State is "ready", "busy", the faults, or why the status is unknown.
	State string    `json:"state"`
	At    time.Time `json:"at"`
}

// Statuses asks every device now.
func (r *Worker) Statuses(ctx context.Context) []Status {
	out := make([]Status, 0, len(r.devices))
	for _, d := range r.devices {
		s := Status{Name: d.Spec.Name, Kind: d.Spec.Kind, At: r.o.Now()}
		msg := strings.TrimPrefix(r.deviceNow(ctx, d), "; ")
		s.State = strings.TrimPrefix(msg, "it reports ")
		s.Ready = s.State == "ready" || s.State == "Idle"
		out = append(out, s)
	}
	return out
}

// ErrNoStation: no engraver of that name with station controls.
var ErrNoStation = errors.New("jobs: no such engraver")

// Station returns the station controls (home, jog, frame, overrides…)
// of the engraver named name, opening it when it is pending. They are
// the device's own driver: a control refused while a job runs says so
// (engravers.ErrBusy), while pause, resume, overrides and abort act on
// the running job.
func (r *Worker) Station(ctx context.Context, name string) (engravers.Station, error) {
	for _, d := range r.devices {
		if d.Spec.Name != name || d.Spec.JobKind() != service.JobEngrave {
			continue
		}
		if err := d.connect(ctx); err != nil {
			return nil, err
		}
		_, en := d.drivers()
		st, ok := en.(engravers.Station)
		if !ok {
			return nil, fmt.Errorf("%w: %s has no station controls", ErrNoStation, name)
		}
		return st, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrNoStation, name)
}

// Engravers names the worker's engravers.
func (r *Worker) Engravers() []string {
	var out []string
	for _, d := range r.devices {
		if d.Spec.JobKind() == service.JobEngrave {
			out = append(out, d.Spec.Name)
		}
	}
	return out
}

// Job returns the engraving of tag t for the engraver named name, as it
// would be sent (for a frame or a time estimate before the job).
func (r *Worker) Job(name string, t *tags.Tag) (engravers.Job, error) {
	for _, d := range r.devices {
		if d.Spec.Name == name && d.Spec.JobKind() == service.JobEngrave {
			tp, err := r.renderer(d).Paths(t)
			if err != nil {
				return engravers.Job{}, fmt.Errorf("jobs: render: %w", err)
			}
			return d.Spec.Engraving(tp, t.String()), nil
		}
	}
	return engravers.Job{}, fmt.Errorf("%w: %q", ErrNoStation, name)
}
