package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/licensing"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/tags"
)

const printUsage = `usage:
  chipdesk print licence ID [--engrave] [--device SPEC]   queue (and make) the tag of a licence
  chipdesk print batch --jurisdiction J --year Y --count N [--species S] [--key K] [--engrave] [--device SPEC]
                                                         reserve N pre-numbered tags for a year and make them
  chipdesk print duplicate LICENCE --reason lost|stolen [--fee CENTS] [--engrave] [--device SPEC]
                                                         issue a duplicate licence for a lost or stolen tag
                                                         (fee from the rules, 64.40) and queue (and make) its tag
  chipdesk print reprint JOB [--device SPEC]             queue a failed job again (same tag number)
  chipdesk print resume BATCH [--device SPEC]            go on with a failed batch from its next tag
  chipdesk print list [--state STATE]                    jobs and batches
  chipdesk print run --device SPEC [--device SPEC...]    make queued tags (from the pages, the API, other
                                                         print commands) on the devices until interrupted

With --device KIND:ADDRESS[,option=value...] (zpl, brotherql, grbl; e.g.
zpl:10.0.0.7:9100, grbl:/dev/ttyUSB0,power=0.6) the command makes the tags
now, after marking work left "sent" to that device by an interrupted run
as failed; without it the tags wait in the queue for the service. A batch
shows a progress bar on stderr; an engraver asks at the terminal for each
next blank (or plate, option plate=WxH mm), and without an answer the
batch pauses until "print resume". Exit status 1 when the device fails.
common flags: --db FILE, --keys PATH, --designs DIR, --previews DIR (PNG of each tag made)`

// printSubs are the print subcommands, one function each.
var printSubs = map[string]func(ctx context.Context, c *printCmd, args []string) error{
	"licence":   printLicence,
	"duplicate": printDuplicate,
	"batch":     printBatch,
	"reprint":   printReprint,
	"resume":    printResume,
	"list":      printListCmd,
	"run":       printRunCmd,
}

func runPrint(ctx context.Context, e *cmdline.Env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(e.Stderr, printUsage)
		if len(args) == 0 {
			return cmdline.Exit(2, nil)
		}
		return nil
	}
	sub, ok := printSubs[args[0]]
	if !ok {
		return cmdline.UsageError("print: unknown subcommand %q (want licence, duplicate, batch, reprint, resume, list or run)", args[0])
	}
	return sub(ctx, newPrintCmd(e, args[0]), args[1:])
}

// printCmd is what the print subcommands share: the flags naming the
// database, the keys, the designs and the previews folder, the devices,
// and what they open from them.
type printCmd struct {
	e        *cmdline.Env
	sub      string
	fs       *flag.FlagSet
	db       *string
	keys     *string
	designs  *string
	previews *string
	engrave  *bool
	devices  []string
}

func newPrintCmd(e *cmdline.Env, sub string) *printCmd {
	fs := flag.NewFlagSet("print "+sub, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	c := &printCmd{e: e, sub: sub, fs: fs,
		db:       fs.String("db", envOr("CHIPDESK_DB", defaultConfig().DB), "SQLite database `file`"),
		keys:     fs.String("keys", envOr("CHIPDESK_TAG_KEYS", ""), "check-code key `path` (file or directory)"),
		designs:  fs.String("designs", "", "extra tag design `dir`"),
		previews: fs.String("previews", "", "write a PNG of every tag made to `dir`"),
		engrave:  fs.Bool("engrave", false, "engrave rather than print"),
	}
	fs.Var(&stringsFlag{vals: &c.devices}, "device", "make the tags now on `KIND:ADDRESS[,option=value...]` (run: repeatable)")
	return c
}

// parse parses args and returns the positional arguments, want of them
// (-1: any).
func (c *printCmd) parse(args []string, want int) ([]string, error) {
	pos, err := cmdline.ParseArgs(c.fs, args)
	if err != nil {
		return nil, cmdline.FlagError(err)
	}
	if want >= 0 && len(pos) != want {
		if want == 0 {
			return nil, cmdline.UsageError("print %s: unexpected argument %q", c.sub, pos[0])
		}
		return nil, cmdline.UsageError("print %s: want one id", c.sub)
	}
	return pos, nil
}

// id parses the one positional argument, a record id.
func (c *printCmd) id(args []string) (int64, error) {
	pos, err := c.parse(args, 1)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(pos[0], 10, 64)
	if err != nil || n <= 0 {
		return 0, cmdline.UsageError("print %s: bad id %q", c.sub, pos[0])
	}
	return n, nil
}

// device is the one --device of a subcommand (none: the tags wait in the
// queue) and the kind of job it makes.
func (c *printCmd) device() (jobs.Spec, service.JobKind, error) {
	kind := service.JobPrint
	if *c.engrave {
		kind = service.JobEngrave
	}
	if len(c.devices) > 1 {
		return jobs.Spec{}, "", cmdline.UsageError("print %s: one --device", c.sub)
	}
	if len(c.devices) == 0 {
		return jobs.Spec{}, kind, nil
	}
	spec, err := jobs.ParseSpec(c.devices[0])
	if err != nil {
		return jobs.Spec{}, "", cmdline.UsageError("print: %v", err)
	}
	if *c.engrave && spec.JobKind() != service.JobEngrave {
		return jobs.Spec{}, "", cmdline.UsageError("print: --engrave with %s, a printer", spec.Name)
	}
	return spec, spec.JobKind(), nil
}

// issuer checks the folders, then opens the store and loads the rules,
// the designs and the keys: every argument is checked before anything
// is reserved or queued. close releases the store.
func (c *printCmd) issuer(ctx context.Context) (is *jobs.Orders, close func(), err error) {
	for _, dir := range []struct{ flag, path string }{{"--previews", *c.previews}, {"--designs", *c.designs}} {
		if dir.path == "" {
			continue
		}
		if fi, err := os.Stat(dir.path); err != nil || !fi.IsDir() {
			return nil, nil, cmdline.UsageError("print %s: %s %s is not a folder", c.sub, dir.flag, dir.path)
		}
	}
	store, err := openStore(ctx, *c.db, c.e.Now)
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (*jobs.Orders, func(), error) {
		store.Close()
		return nil, nil, err
	}
	rs, _, err := loadRules(envOr("CHIPDESK_JURISDICTION", defaultConfig().Jurisdiction))
	if err != nil {
		return fail(err)
	}
	ds, err := tags.LoadDesigns(*c.designs)
	if err != nil {
		return fail(err)
	}
	keys, err := tagKeys(c.e, *c.keys)
	if err != nil {
		return fail(err)
	}
	return &jobs.Orders{Store: store, Rules: rs, Designs: ds, Keys: keys}, func() { store.Close() }, nil
}

// prepare checks the device and every argument, opens the store (and
// check, when given, judges the rest before anything is opened on the
// device), then the device of --device: everything before a number is
// taken. done closes what it opened; dev is nil when the tags wait in
// the queue.
func (c *printCmd) prepare(ctx context.Context, check func(is *jobs.Orders) error) (is *jobs.Orders, dev *jobs.Device, kind service.JobKind, done func(), err error) {
	spec, kind, err := c.device()
	if err != nil {
		return nil, nil, "", nil, err
	}
	is, closeStore, err := c.issuer(ctx)
	if err != nil {
		return nil, nil, "", nil, err
	}
	if check != nil {
		if err := check(is); err != nil {
			closeStore()
			return nil, nil, "", nil, err
		}
	}
	if spec.Kind == "" {
		return is, nil, kind, closeStore, nil
	}
	if dev, err = jobs.Open(ctx, spec); err != nil {
		closeStore()
		return nil, nil, "", nil, cmdline.Exit(1, err)
	}
	return is, dev, kind, func() { dev.Close(); closeStore() }, nil
}

// makeJob makes job j on dev (nil: it waits in the queue).
func (c *printCmd) makeJob(ctx context.Context, is *jobs.Orders, dev *jobs.Device, j *service.Job) error {
	fmt.Fprintf(c.e.Stdout, "job %d: licence %d, %s, %s\n", j.ID, j.LicenceID, j.Kind, j.State)
	if dev == nil {
		return nil
	}
	return printRun(ctx, c.e, is, dev, *c.previews, func() (bool, error) {
		j, err := is.Store.FindJobByID(ctx, j.ID)
		if err != nil {
			return true, err
		}
		return jobResult(c.e, j.State, fmt.Sprintf("job %d", j.ID), j.Error)
	})
}

// makeBatch makes batch b on dev (nil: it waits in the queue).
func (c *printCmd) makeBatch(ctx context.Context, is *jobs.Orders, dev *jobs.Device, b *service.TagBatch) error {
	fmt.Fprintf(c.e.Stdout, "batch %d: %s %d tags %d-%d, %s, %s\n", b.ID, b.Jurisdiction, b.Year, b.First, b.Last, b.Kind, b.State)
	if dev == nil {
		return nil
	}
	return printRun(ctx, c.e, is, dev, *c.previews, func() (bool, error) {
		b, err := is.Store.FindTagBatchByID(ctx, b.ID)
		if err != nil {
			return true, err
		}
		return jobResult(c.e, b.State, fmt.Sprintf("batch %d", b.ID), b.Error)
	})
}

// printLicence queues (and makes) the tag of a licence: one job per
// licence.
func printLicence(ctx context.Context, c *printCmd, args []string) error {
	id, err := c.id(args)
	if err != nil {
		return err
	}
	return c.queueLicence(ctx, id, nil)
}

// queueLicence queues the tag of licence id, after before (the duplicate
// licence's issue) when given, and makes it on the device.
func (c *printCmd) queueLicence(ctx context.Context, id int64, before func(is *jobs.Orders) (int64, error)) error {
	is, dev, kind, done, err := c.prepare(ctx, nil)
	if err != nil {
		return err
	}
	defer done()
	if before != nil {
		if id, err = before(is); err != nil {
			return err
		}
	}
	j, created, err := is.Queue(changeCtx(ctx, c.e, "job.create", "job", 0, string(kind)+" licence "+strconv.FormatInt(id, 10)), id, kind)
	if err != nil {
		return err
	}
	if !created {
		fmt.Fprintf(c.e.Stderr, "licence %d already has job %d (%s, %s): one tag per licence\n", id, j.ID, j.Kind, j.State)
	}
	return c.makeJob(ctx, is, dev, j)
}

// printDuplicate issues a duplicate licence for a lost or stolen tag
// (64.40) and queues (and makes) its tag.
func printDuplicate(ctx context.Context, c *printCmd, args []string) error {
	reason := c.fs.String("reason", "", "why the tag is replaced: lost or stolen")
	fee := c.fs.Int64("fee", -1, "fee charged in `cents` when the rules leave it open")
	id, err := c.id(args)
	if err != nil {
		return err
	}
	if *reason != string(service.TagLost) && *reason != string(service.TagStolen) {
		return cmdline.UsageError("print duplicate: --reason must be lost or stolen (64.40)")
	}
	return c.queueLicence(ctx, id, func(is *jobs.Orders) (int64, error) {
		return issueDuplicate(ctx, c.e, is.Store, is.Rules, id, service.ReplaceReason(*reason), *fee)
	})
}

// printReprint queues a failed job again, with the same tag number.
func printReprint(ctx context.Context, c *printCmd, args []string) error {
	id, err := c.id(args)
	if err != nil {
		return err
	}
	is, dev, _, done, err := c.prepare(ctx, nil)
	if err != nil {
		return err
	}
	defer done()
	j, err := is.Reprint(changeCtx(ctx, c.e, "job.reprint", "job", id, ""), id)
	if err != nil {
		return err
	}
	return c.makeJob(ctx, is, dev, j)
}

// printBatch reserves a run of pre-numbered tags for a year and makes
// them; a batch with the same key is made once.
func printBatch(ctx context.Context, c *printCmd, args []string) error {
	fs := c.fs
	jur := fs.String("jurisdiction", "", "jurisdiction `name or code`")
	year := fs.Int("year", 0, "tag `year`")
	count := fs.Int("count", 0, "`number` of tags")
	species := fs.String("species", "", "`species` line of the tags (default the design's first)")
	key := fs.String("key", "", "idempotency `key`: a batch with this key is made once")
	if _, err := c.parse(args, 0); err != nil {
		return err
	}
	if *jur == "" || *year == 0 || *count <= 0 {
		return cmdline.UsageError("print batch: --jurisdiction, --year and --count required")
	}
	var profile string
	is, dev, kind, done, err := c.prepare(ctx, func(is *jobs.Orders) (err error) {
		if profile, _, err = tagDesign(is.Rules, is.Designs, *jur, *year); err != nil {
			return cmdline.UsageError("print batch: --jurisdiction: %v", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	defer done()
	b, created, err := is.QueueBatch(changeCtx(ctx, c.e, "batch.create", "tag-batch", 0, profile), jobs.BatchRequest{Kind: kind, Jurisdiction: profile, Year: *year,
		Count: *count, Species: *species, Key: *key})
	if err != nil {
		return err
	}
	if !created {
		fmt.Fprintf(c.e.Stderr, "batch with key %q exists: no new numbers reserved\n", *key)
	}
	return c.makeBatch(ctx, is, dev, b)
}

// printResume goes on with a failed batch from its next tag.
func printResume(ctx context.Context, c *printCmd, args []string) error {
	id, err := c.id(args)
	if err != nil {
		return err
	}
	is, dev, _, done, err := c.prepare(ctx, nil)
	if err != nil {
		return err
	}
	defer done()
	b, err := is.ResumeBatch(changeCtx(ctx, c.e, "batch.resume", "tag-batch", id, ""), id)
	if err != nil {
		return err
	}
	return c.makeBatch(ctx, is, dev, b)
}

// printListCmd lists the jobs and batches, in a state when asked.
func printListCmd(ctx context.Context, c *printCmd, args []string) error {
	state := c.fs.String("state", "", "only jobs and batches in `state`")
	if _, err := c.parse(args, 0); err != nil {
		return err
	}
	if *state != "" && !service.JobState(*state).Valid() {
		return cmdline.UsageError("print list: --state must be queued, sent, done, failed, unconfirmed or check")
	}
	store, err := openStore(ctx, *c.db, c.e.Now)
	if err != nil {
		return err
	}
	defer store.Close()
	return printList(ctx, c.e, store, *state)
}

// printRunCmd makes queued tags on the devices until interrupted.
func printRunCmd(ctx context.Context, c *printCmd, args []string) error {
	if _, err := c.parse(args, 0); err != nil || len(c.devices) == 0 {
		if err == nil {
			err = cmdline.UsageError("print run: want --device SPEC (repeatable) and no arguments")
		}
		return err
	}
	for _, d := range c.devices {
		if _, err := jobs.ParseSpec(d); err != nil {
			return cmdline.UsageError("print: %v", err)
		}
	}
	is, closeStore, err := c.issuer(ctx)
	if err != nil {
		return err
	}
	defer closeStore()
	return printDaemon(ctx, c.e, is, c.devices, *c.previews)
}

// jobResult says whether a job in state st is finished, and prints the
// outcome; a failed one is exit status 1.
func jobResult(e *cmdline.Env, st service.JobState, what, msg string) (bool, error) {
	switch st {
	case service.JobDone:
		fmt.Fprintf(e.Stdout, "%s done\n", what)
		return true, nil
	case service.JobUnconfirmed:
		fmt.Fprintf(e.Stdout, "%s sent, not confirmed: %s\n", what, msg)
		return true, nil
	case service.JobCheck:
		return true, cmdline.Exit(1, fmt.Errorf("%s: %s", what, msg))
	case service.JobFailed:
		return true, cmdline.Exit(1, fmt.Errorf("%s failed: %s", what, msg))
	}
	return false, nil
}

// printRun makes queued work on the open device until target is
// finished.
func printRun(ctx context.Context, e *cmdline.Env, is *jobs.Orders, dev *jobs.Device, previews string, target func() (bool, error)) error {
	spec := dev.Spec
	bar := &progressBar{w: e.Stderr}
	r, err := jobs.New([]*jobs.Device{dev}, &jobs.Opts{Orders: is, Previews: previews, Now: e.Now, OnEvent: bar.event,
		NextBlank: askNextBlank(e, bar.end)})
	if err != nil {
		return err
	}
	if n, err := r.Recover(ctx); err != nil {
		return err
	} else if n > 0 {
		fmt.Fprintf(e.Stderr, "%d interrupted job(s) on %s marked failed (chipdesk print list --state failed)\n", n, spec.Name)
	}
	for {
		if finished, err := target(); finished || err != nil {
			return err
		}
		did, err := r.RunOnce(ctx, dev)
		if err != nil {
			return err
		}
		if !did {
			return cmdline.Exit(1, fmt.Errorf("print: nothing queued for %s", spec.Name))
		}
	}
}

// askNextBlank asks the person at the laser to load the next blank (or
// plate) of an engraved batch and press Enter; before it, clear ends a
// progress bar's line. Stdin is read by one goroutine, so a cancelled
// context is not held up by a terminal nobody answers.
func askNextBlank(e *cmdline.Env, clear func()) func(ctx context.Context, device string, first, last int) error {
	var (
		once  sync.Once
		lines = make(chan error, 1)
	)
	read := func() {
		in := bufio.NewReader(e.Stdin)
		for {
			_, err := in.ReadString('\n')
			lines <- err
			if err != nil {
				close(lines)
				return
			}
		}
	}
	return func(ctx context.Context, device string, first, last int) error {
		clear()
		if first == last {
			fmt.Fprintf(e.Stderr, "load the blank for tag %d on %s, then press Enter: ", first, device)
		} else {
			fmt.Fprintf(e.Stderr, "load the plate for tags %d-%d on %s, then press Enter: ", first, last, device)
		}
		once.Do(func() { go read() })
		select {
		case <-ctx.Done():
			fmt.Fprintln(e.Stderr)
			return ctx.Err()
		case err, ok := <-lines:
			if !ok || err != nil {
				fmt.Fprintln(e.Stderr)
				return errors.New("no one at the terminal")
			}
			return nil
		}
	}
}

// printDaemon runs the queue on the devices until ctx ends (Ctrl-C),
// reporting every job on stdout. Devices that are off or unplugged are
// opened when they answer.
func printDaemon(ctx context.Context, e *cmdline.Env, is *jobs.Orders, specs []string, previews string) error {
	devs, err := jobs.PendingDevices(specs)
	if err != nil {
		return cmdline.UsageError("print: %v", err)
	}
	defer func() {
		for _, d := range devs {
			d.Close()
		}
	}()
	report := func(ev jobs.Event) {
		what := fmt.Sprintf("job %d", ev.Job)
		if ev.Batch != 0 {
			what = fmt.Sprintf("batch %d (%d/%d)", ev.Batch, ev.Done, ev.Total)
		}
		line := fmt.Sprintf("%s %s %s tag %d on %s: %s", ev.At.Format(time.TimeOnly), what, ev.Jurisdiction, ev.Tag, ev.Device, ev.State)
		if ev.Error != "" {
			line += ": " + ev.Error
		}
		fmt.Fprintln(e.Stdout, line)
	}
	log := slog.New(slog.NewTextHandler(e.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	r, err := jobs.New(devs, &jobs.Opts{Orders: is, Previews: previews, Now: e.Now, OnEvent: report, Logger: log,
		NextBlank: askNextBlank(e, func() {})})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.Stderr, "making queued tags on %s; stop with Ctrl-C\n", strings.Join(specs, ", "))
	if err := r.Run(ctx); !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// progressBar draws the progress of a batch on one terminal line:
// "[#########...........] 45/100 MPLS 2026 tag 000145".
type progressBar struct {
	w     io.Writer
	drawn bool
}

func (p *progressBar) event(ev jobs.Event) {
	if ev.Batch == 0 {
		if ev.State == service.JobFailed && ev.Error != "" {
			p.end()
		}
		return
	}
	if ev.State != service.JobSent {
		p.draw(ev)
		p.end()
		return
	}
	p.draw(ev)
}

func (p *progressBar) draw(ev jobs.Event) {
	fmt.Fprintf(p.w, "\r%s %d/%d tag %d ", barText(int64(ev.Done), int64(ev.Total)), ev.Done, ev.Total, ev.Tag)
	p.drawn = true
}

func (p *progressBar) end() {
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}

func printList(ctx context.Context, e *cmdline.Env, store service.Store, state string) error {
	var st *service.JobState
	if state != "" {
		s := service.JobState(state)
		st = &s
	}
	js, _, err := store.FindJobs(ctx, service.JobFilter{State: st})
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "JOB\tLICENCE\tKIND\tREASON\tSTATE\tDEVICE\tTRIES\tUPDATED\tERROR")
	for _, j := range js {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", j.ID, j.LicenceID, j.Kind, j.Reason, j.State, j.Device,
			j.Attempts, j.UpdatedAt.Format(time.DateTime), j.Error)
	}
	list, _, err := store.FindTagBatches(ctx, service.TagBatchFilter{State: st})
	if err != nil {
		return err
	}
	if len(list) > 0 {
		fmt.Fprintln(tw, "\nBATCH\tTAGS\tKIND\tYEAR\tSTATE\tDEVICE\tDONE\tUPDATED\tERROR")
	}
	for _, b := range list {
		fmt.Fprintf(tw, "%d\t%s %d-%d\t%s\t%d\t%s\t%s\t%d/%d\t%s\t%s\n", b.ID, b.Jurisdiction, b.First, b.Last, b.Kind, b.Year,
			b.State, b.Device, b.Done, b.Count(), b.UpdatedAt.Format(time.DateTime), b.Error)
	}
	return tw.Flush()
}

// issueDuplicate issues the duplicate licence of licence id for a lost
// or stolen tag, with the fee of the rules (Minneapolis 64.40; fee
// cents when the ordinance leaves the amount to a resolution), and
// returns its id. Its tag gets a new number; the old tag is void.
func issueDuplicate(ctx context.Context, e *cmdline.Env, store service.Store, rs *rules.Set, id int64, reason service.ReplaceReason, fee int64) (int64, error) {
	old, err := store.FindLicenceByID(ctx, id)
	if err != nil {
		return 0, err
	}
	lic, err := licensing.New(&licensing.Opts{Store: store, Rules: rs, Now: e.Now})
	if err != nil {
		return 0, err
	}
	req := &licensing.DuplicateRequest{Reason: reason, Seller: &licensing.Seller{Site: old.Site}}
	if fee >= 0 {
		req.FeeCents = &fee
	}
	l, err := lic.Duplicate(changeCtx(ctx, e, "licence.duplicate", "licence", 0, fmt.Sprintf("replaces %d (%s)", old.ID, reason)), old.ID, req)
	if err != nil && service.ErrorCode(err) != service.EINTERNAL {
		return 0, errors.New(service.ErrorMessage(err))
	} else if err != nil {
		return 0, err
	}
	fmt.Fprintf(e.Stdout, "licence %d replaces licence %d (tag %d, %s): tag %d, fee %s\n",
		l.ID, old.ID, old.TagNumber, reason, l.TagNumber, rules.Money(l.DuplicateFeeCents))
	for _, w := range l.Warnings {
		fmt.Fprintf(e.Stderr, "warning: %s\n", w)
	}
	return l.ID, nil
}

// changeCtx is ctx carrying the audit event of the change a print
// command is about to make, by "chipdesk print": the store writes it in
// the change's own transaction (service.WithChange), and a change found
// made before (a job or batch of the same key) writes none.
func changeCtx(ctx context.Context, e *cmdline.Env, action, entity string, id int64, detail string) context.Context {
	ctx, _ = service.WithChange(ctx, &service.AuditEvent{At: e.Now().UTC(), Actor: "chipdesk print", Action: action,
		Entity: entity, EntityID: id, Detail: detail})
	return ctx
}
