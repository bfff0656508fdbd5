package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/custody"
	"github.com/chipdesk/chipdesk/service/incidents"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/offline"
)

const syncUsage = `usage:
  chipdesk sync [flags]                    push queued events, then pull what changed
  chipdesk sync pull [--full] [flags]      pull what changed on the central service since the last pull
  chipdesk sync push [flags]               push queued events (scans, bites) to the central service
  chipdesk sync lookup CHIP | --tag N --jurisdiction J [--year Y] [--scan] [--json]
                                           answer from the offline copy, as the intake page does
  chipdesk sync scan CHIP                  look a chip up offline and queue the scan
  chipdesk sync bite --chip CHIP --victim person|animal --date YYYY-MM-DD [--skin-broken] [--provoked]
                     [--location TEXT] [--notes TEXT]
                                           queue a bite report; pushed, it starts the quarantine the law orders
  chipdesk sync impound --chip CHIP [--where TEXT] [--jurisdiction J]
                                           queue a pickup: pushed, it is an impoundment with the hold the law sets
  chipdesk sync note --chip CHIP --text TEXT
                                           queue a field note: pushed, it is on the animal's record
  chipdesk sync status                     when the copy was pulled; queued, applied and rejected events
  chipdesk sync rejected [--json]          list (or export as JSON lines) the events the central service refused
  chipdesk sync retry [ID...]              queue rejected events again (all without ids)
  chipdesk sync salvage --to NEW           copy the queue of a damaged replica into a new one
--central is the central service's base URL, http(s)://HOST:PORT (the handler is at
HOST:PORT/api/v1/sync, which is added; a URL with a path is taken as it is), with --token, the
handheld's own device token (chipdesk token create --role officer --name DEVICE); or a database
(SQLite file or postgres:// URL) reached directly. Default $CHIPDESK_CENTRAL, $CHIPDESK_TOKEN.
common flags: --replica FILE (default $CHIPDESK_REPLICA, else chipdesk-replica.db),
--device NAME (default $CHIPDESK_DEVICE, else the host name), --user NAME, --site NAME,
--timeout D (each request; default 30s), --attempts N (default 4), --max-age D (refuse lookups from an older copy; default 72h),
--pin PIN (default $CHIPDESK_PIN; - reads it from standard input): the officer's PIN. The copy's records
(owners' names and phones, the animals) are sealed with a key the central service issues to the device
token; the PIN wraps that key on the handheld and is never stored. Lookups and pulls need it; queuing does not.
The conflict rules are in service/offline/README.md.`

var syncSubs = map[string]bool{"pull": true, "push": true, "scan": true, "bite": true, "lookup": true,
	"impound": true, "note": true, "status": true, "rejected": true, "retry": true, "salvage": true}

// runSync is "chipdesk sync [pull|push|lookup|scan|bite|status|rejected|retry]":
// the offline handheld's replica and its reconciliation with the central
// service.
func runSync(ctx context.Context, e *cmdline.Env, args []string) error {
	sub := ""
	if len(args) > 0 && syncSubs[args[0]] {
		sub, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("sync", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() { fmt.Fprintln(e.Stderr, syncUsage) }
	host, _ := os.Hostname()
	var (
		replica  = fs.String("replica", envDefault("CHIPDESK_REPLICA", "chipdesk-replica.db"), "replica `file`")
		central  = fs.String("central", os.Getenv("CHIPDESK_CENTRAL"), "central service base `URL` or database")
		token    = fs.String("token", os.Getenv("CHIPDESK_TOKEN"), "the handheld's device `token` for an http(s):// central")
		device   = fs.String("device", envDefault("CHIPDESK_DEVICE", host), "device `name` stamped on events")
		user     = fs.String("user", os.Getenv("USER"), "officer `name` stamped on events")
		site     = fs.String("site", os.Getenv("CHIPDESK_SITE"), "`site` stamped on events")
		reader   = fs.String("reader", "", "reader `name` on queued scans (scan; default the device)")
		pushOnly = fs.Bool("push-only", false, "push the queue, do not pull (as sync push)")
		full     = fs.Bool("full", false, "pull everything, not only what changed")
		timeout  = fs.Duration("timeout", offline.DefaultTimeout, "how long a request may go unanswered")
		attempts = fs.Int("attempts", offline.DefaultRetry.Attempts, "tries of a push or pull that fails in transit (1 s, 2 s, 4 s apart)")
		maxAge   = fs.Duration("max-age", offline.DefaultMaxAge, "refuse lookups from a copy older than this")
		pin      = fs.String("pin", os.Getenv("CHIPDESK_PIN"), "the officer's `PIN`, which seals the copy (- reads it from standard input)")
		chip     = fs.String("chip", "", "the animal's `chip` (bite: the biter; impound, note)")
		victim   = fs.String("victim", "", "who was bitten: person or animal (bite)")
		date     = fs.String("date", "", "the bite's `date`, YYYY-MM-DD (bite; default today)")
		skin     = fs.Bool("skin-broken", false, "the skin was broken (bite)")
		provoked = fs.Bool("provoked", false, "the bite was provoked (bite)")
		location = fs.String("location", "", "where it happened (bite)")
		notes    = fs.String("notes", "", "notes (bite)")
		where    = fs.String("where", "", "where the animal was picked up (impound)")
		text     = fs.String("text", "", "the note's `text` (note)")
		tag      = fs.Int("tag", 0, "licence tag `number` (lookup)")
		juris    = fs.String("jurisdiction", "", "the tag's jurisdiction (lookup), the impounding city (impound; default the service's)")
		year     = fs.Int("year", 0, "the tag's year (lookup; default this year)")
		doScan   = fs.Bool("scan", false, "also queue the chip read as a scan (lookup)")
		asJSON   = fs.Bool("json", false, "print JSON (lookup, rejected)")
		to       = fs.String("to", "", "the new replica `file` (salvage)")
	)
	pos, err := cmdline.ParseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	} else if err != nil {
		return cmdline.Exit(2, nil)
	}
	if sub == "" && *pushOnly {
		sub = "push"
	}
	if sub == "salvage" {
		if *to == "" || len(pos) != 0 {
			return cmdline.UsageError("sync salvage: want --replica DAMAGED --to NEW")
		}
		got, err := offline.Salvage(ctx, *replica, *to, &offline.Opts{Device: *device, User: *user, Site: *site, Now: e.Now, MaxAge: *maxAge})
		if err != nil {
			return cmdline.Exit(1, err)
		}
		fmt.Fprintf(e.Stdout, "salvaged %d queued, %d applied, %d rejected events into %s; %d unreadable\nsync pull --replica %s before the next lookup\n",
			got.Events[offline.Queued], got.Events[offline.Applied], got.Events[offline.Rejected], *to, got.Lost, *to)
		return nil
	}
	if *pin == "-" {
		if *pin, err = readPIN(e.Stdin); err != nil {
			return cmdline.Exit(1, err)
		}
	}
	r, err := offline.Open(ctx, *replica, &offline.Opts{Device: *device, User: *user, Site: *site, Now: e.Now, MaxAge: *maxAge, PIN: *pin})
	if err != nil {
		return cmdline.Exit(1, err)
	}
	defer r.Close()
	readerName := *reader
	if readerName == "" {
		readerName = *device
	}
	switch sub {
	case "scan", "lookup":
		if sub == "scan" && len(pos) != 1 {
			return cmdline.UsageError("sync scan: want one chip number\n%s", syncUsage)
		}
		if len(pos) > 1 || len(pos) == 1 && *tag != 0 || len(pos) == 0 && *tag == 0 {
			return cmdline.UsageError("sync lookup: want one chip number, or --tag with --jurisdiction\n%s", syncUsage)
		}
		return syncLookup(ctx, e, r, pos, *tag, *juris, *year, sub == "scan" || *doScan, readerName, *asJSON)
	case "bite":
		if len(pos) != 0 {
			return cmdline.UsageError("sync bite: unexpected argument %q", pos[0])
		}
		return syncBite(ctx, e, r, *chip, *victim, *date, &service.BiteIncident{SkinBroken: *skin, Provoked: *provoked, Location: *location, Notes: *notes})
	case "impound":
		if len(pos) != 0 || *chip == "" {
			return cmdline.UsageError("sync impound: want --chip CHIP [--where TEXT]")
		}
		id, err := chipid.Parse(*chip, nil)
		if err != nil {
			return cmdline.Exit(1, fmt.Errorf("sync impound: --chip: %w", err))
		}
		animal, err := r.AnimalOfChip(ctx, id.Code)
		if err != nil {
			return cmdline.Exit(1, err)
		}
		j := *juris
		if j == "" {
			j = envOr("CHIPDESK_JURISDICTION", defaultConfig().Jurisdiction)
		}
		ev, err := r.RecordImpound(ctx, &service.Impoundment{AnimalID: animal, WhereFound: *where, Jurisdiction: j})
		if err != nil {
			return cmdline.Exit(1, err)
		}
		fmt.Fprintf(e.Stdout, "queued pickup %s of animal %d; pushed at the next sync\n", ev.ID, animal)
		return nil
	case "note":
		if len(pos) != 0 || *chip == "" || strings.TrimSpace(*text) == "" {
			return cmdline.UsageError("sync note: want --chip CHIP --text TEXT")
		}
		id, err := chipid.Parse(*chip, nil)
		if err != nil {
			return cmdline.Exit(1, fmt.Errorf("sync note: --chip: %w", err))
		}
		animal, err := r.AnimalOfChip(ctx, id.Code)
		if err != nil {
			return cmdline.Exit(1, err)
		}
		ev, err := r.RecordNote(ctx, animal, *text)
		if err != nil {
			return cmdline.Exit(1, err)
		}
		fmt.Fprintf(e.Stdout, "queued note %s on animal %d; pushed at the next sync\n", ev.ID, animal)
		return nil
	case "status":
		if len(pos) != 0 {
			return cmdline.UsageError("sync status: unexpected argument %q", pos[0])
		}
		return syncStatus(ctx, e, r)
	case "rejected":
		if len(pos) != 0 {
			return cmdline.UsageError("sync rejected: unexpected argument %q", pos[0])
		}
		return syncRejected(ctx, e, r, *asJSON)
	case "retry":
		n, err := r.Requeue(ctx, pos...)
		if err != nil {
			return cmdline.Exit(1, err)
		}
		fmt.Fprintf(e.Stdout, "requeued %d; they are pushed at the next sync\n", n)
		return nil
	}
	if len(pos) != 0 {
		return cmdline.UsageError("sync: unexpected argument %q\n%s", pos[0], syncUsage)
	}
	if *central == "" {
		return cmdline.UsageError("sync: --central (or CHIPDESK_CENTRAL) is required")
	}
	c, closeCentral, err := openCentral(ctx, *central, *token, *timeout, e)
	if err != nil {
		return err
	}
	defer closeCentral()
	retry := offline.DefaultRetry
	retry.Attempts = max(*attempts, 1)
	rep, err := offline.Sync(ctx, r, c, &offline.SyncOpts{NoPull: sub == "push", NoPush: sub == "pull", Full: *full, Retry: retry})
	if sub != "pull" {
		queued := fmt.Sprintf("%d still queued", rep.Queued)
		if rep.Queued < 0 {
			queued = "the queue could not be counted (sync status tells)"
		}
		fmt.Fprintf(e.Stdout, "pushed %d: %d applied, %d duplicates, %d rejected; %s\n",
			rep.Pushed, rep.Applied, rep.Duplicates, rep.Rejected, queued)
	}
	if err != nil {
		return err
	}
	if sub != "push" {
		what := "changed since the last pull"
		if rep.Full {
			what = "all"
		}
		fmt.Fprintf(e.Stdout, "pulled %d records (%s), dropped %d", rep.Pulled, what, rep.Dropped)
		if hc, ok := c.(*offline.HTTPClient); ok {
			fmt.Fprintf(e.Stdout, "; %d bytes received", hc.Received())
		}
		fmt.Fprintf(e.Stdout, "\nreplica: %d records\n", rep.Records)
	}
	if rep.Rejected > 0 {
		fmt.Fprintln(e.Stdout, "rejected events are kept on the device: chipdesk sync rejected lists them")
	}
	return nil
}

// syncLookup answers a chip or tag from the replica through the lookup
// service, the code that answers at the intake counter, and prints it as
// the intake page shows it: danger and quarantine first.
func syncLookup(ctx context.Context, e *cmdline.Env, r *offline.Replica, pos []string, tag int, juris string, year int, queue bool, reader string, asJSON bool) error {
	home := envOr("CHIPDESK_JURISDICTION", defaultConfig().Jurisdiction)
	rs, _, err := loadRules(home)
	if err != nil {
		return err
	}
	lk, err := lookup.New(&lookup.Opts{Store: r, Rules: rs, Jurisdiction: home, Now: e.Now})
	if err != nil {
		return err
	}
	q := lookup.Query{Tag: tag, Jurisdiction: juris, Year: year}
	var id chipid.ID
	if len(pos) == 1 {
		if id, err = lk.ParseChip(pos[0]); err != nil {
			return cmdline.Exit(1, fmt.Errorf("sync %s: %w", map[bool]string{true: "scan", false: "lookup"}[queue], err))
		}
		q.Chip = id.Code
	}
	if queue && q.Chip != "" {
		// The scan is queued first: a copy too old to answer still
		// records that the chip was read.
		ev, err := r.RecordScan(ctx, id, reader)
		if err != nil {
			return err
		}
		defer fmt.Fprintf(e.Stderr, "queued scan %s\n", ev.ID)
	}
	a, err := lk.Lookup(ctx, q)
	if err != nil {
		return cmdline.Exit(1, err)
	}
	pulled, err := r.PulledAt(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(e.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			*lookup.Answer
			CopyAsOf time.Time `json:"copy_as_of"`
		}{a, pulled.UTC()})
	}
	printAnswer(e.Stdout, a, pulled)
	return nil
}

// printAnswer prints a lookup answer for the officer: what must be
// known at once first, then the animal, licence, rabies and the owner's
// contact, and how old the copy is.
func printAnswer(w io.Writer, a *lookup.Answer, pulled time.Time) {
	for _, al := range a.AlertDetails {
		sec := ""
		if al.Section != "" {
			sec = " (" + al.Section + ")"
		}
		fmt.Fprintf(w, "%s: %s%s\n", strings.ToUpper(al.Severity), al.Message, sec)
	}
	if !a.Found {
		if a.NextStep != "" {
			fmt.Fprintln(w, a.NextStep)
		}
		fmt.Fprintf(w, "not in the offline copy (copy as of %s)\n", pulled.UTC().Format("2006-01-02 15:04Z"))
		return
	}
	if d := a.Dangerous; d != nil {
		fmt.Fprintf(w, "%s (%s, declared %s)", strings.ToUpper(strings.ReplaceAll(string(d.Level), "_", " ")), d.Jurisdiction, d.Declared)
		if d.Conditions != "" {
			fmt.Fprintf(w, ": %s", d.Conditions)
		}
		fmt.Fprintln(w)
		for _, x := range d.Restrictions {
			fmt.Fprintf(w, "  - %s\n", x)
		}
	}
	if q := a.Quarantine; q != nil {
		fmt.Fprintf(w, "QUARANTINE %s at %s, %s to %s\n", q.Kind, q.Place, q.Start, q.End)
	}
	if an := a.Animal; an != nil {
		fmt.Fprintf(w, "animal %d: %s", an.ID, an.Species)
		for _, x := range []string{an.Name, an.Breed, an.Colour, string(an.Sex)} {
			if x != "" {
				fmt.Fprintf(w, ", %s", x)
			}
		}
		if len(an.Chips) > 0 {
			fmt.Fprintf(w, "; chips %s", strings.Join(an.Chips, " "))
		}
		fmt.Fprintln(w)
	}
	if l := a.Licence; l != nil {
		fmt.Fprintf(w, "licence: %s", l.Status)
		if l.TagNumber != 0 {
			fmt.Fprintf(w, ", tag %d (%s %d)", l.TagNumber, l.Jurisdiction, l.Year)
		}
		if !l.Expires.IsZero() {
			fmt.Fprintf(w, ", expires %s", l.Expires)
		}
		fmt.Fprintln(w)
	}
	if rb := a.Rabies; rb != nil {
		fmt.Fprintf(w, "rabies: %s", rb.Status)
		if !rb.Vaccinated.IsZero() {
			fmt.Fprintf(w, ", vaccinated %s", rb.Vaccinated)
		}
		if !rb.Expires.IsZero() {
			fmt.Fprintf(w, ", expires %s", rb.Expires)
		}
		fmt.Fprintln(w)
	}
	if o := a.Owner; o != nil {
		fmt.Fprintf(w, "owner: %s", o.Name)
		if o.Phone != "" {
			fmt.Fprintf(w, ", phone %s", o.Phone)
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintln(w, "owner: none on file")
	}
	fmt.Fprintf(w, "copy as of %s\n", pulled.UTC().Format("2006-01-02 15:04Z"))
}

// syncBite queues a bite report on the animal the replica knows for
// chip. The central service applies it through incidents, which starts
// the quarantine (66.40, 5-39(a)).
func syncBite(ctx context.Context, e *cmdline.Env, r *offline.Replica, chip, victim, date string, b *service.BiteIncident) error {
	if chip == "" {
		return cmdline.UsageError("sync bite: --chip is required")
	}
	id, err := chipid.Parse(chip, nil)
	if err != nil {
		return cmdline.Exit(1, fmt.Errorf("sync bite: --chip: %w", err))
	}
	switch service.Victim(victim) {
	case service.VictimPerson, service.VictimAnimal:
		b.Victim = service.Victim(victim)
	default:
		return cmdline.UsageError("sync bite: --victim must be person or animal")
	}
	if date != "" {
		if b.Date, err = service.ParseDate(date); err != nil {
			return cmdline.UsageError("sync bite: --date: want YYYY-MM-DD, got %q", date)
		}
	}
	if b.AnimalID, err = r.AnimalOfChip(ctx, id.Code); err != nil {
		return cmdline.Exit(1, err)
	}
	ev, err := r.RecordBite(ctx, b)
	if err != nil {
		return cmdline.Exit(1, err)
	}
	fmt.Fprintf(e.Stdout, "queued bite %s on animal %d; pushed at the next sync\n", ev.ID, b.AnimalID)
	return nil
}

// syncRejected lists the refused events, or exports them as JSON lines
// (each the event as pushed, its state and the reason).
func syncRejected(ctx context.Context, e *cmdline.Env, r *offline.Replica, asJSON bool) error {
	rej, err := r.Events(ctx, offline.Rejected)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(e.Stdout)
		for _, q := range rej {
			if err := enc.Encode(q); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "REJECTED\tKIND\tAT\tREASON")
	for _, q := range rej {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", q.Event.ID, q.Event.Kind, q.Event.At.UTC().Format("2006-01-02 15:04:05Z"), q.Detail)
	}
	return tw.Flush()
}

// readPIN is the first line of in, the officer's PIN.
func readPIN(in io.Reader) (string, error) {
	if in == nil {
		return "", service.Invalidf("pin", "--pin -: no standard input to read the PIN from")
	}
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("sync: reading the PIN: %w", err)
	}
	if p := strings.TrimRight(line, "\r\n"); p != "" {
		return p, nil
	}
	return "", service.Invalidf("pin", "--pin -: standard input gave no PIN")
}

// withSync serves the offline handhelds' sync endpoints (offline.Handler,
// officer and admin tokens) under offline.SyncPath, and every other path
// with next. guard, when set, puts the endpoints behind the API's guard
// (the bad-token limit, refusals audited; httpapi.Server.Guard).
func withSync(next http.Handler, guard func(http.Handler, ...service.Role) http.Handler, st backend, inc *incidents.Service, cus *custody.Service, log *slog.Logger) http.Handler {
	cs, ok := st.(offline.CentralStore)
	if !ok {
		return next
	}
	central := &offline.StoreCentral{Store: cs}
	if inc != nil && cus != nil {
		central.Events = &deviceEvents{inc: inc, custody: cus}
	}
	var h http.Handler = http.StripPrefix(offline.SyncPath,
		offline.Handler(central, &offline.HandlerOpts{Tokens: st, Logger: log, Audit: st}))
	if guard != nil {
		h = guard(h, service.RoleOfficer)
	}
	mux := http.NewServeMux()
	mux.Handle(offline.SyncPath+"/", h)
	mux.Handle("/", next)
	return mux
}

// openCentral reaches the central service: over HTTP for an http(s)://
// URL, else directly on its database.
func openCentral(ctx context.Context, target, token string, timeout time.Duration, e *cmdline.Env) (offline.Central, func(), error) {
	if strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "http://") {
		return &offline.HTTPClient{URL: offline.SyncURL(target), Token: token, Timeout: timeout}, func() {}, nil
	}
	st, err := openBackend(ctx, target, e.Now, nil)
	if err != nil {
		return nil, nil, err
	}
	cs, ok := st.(offline.CentralStore)
	if !ok {
		st.Close()
		return nil, nil, fmt.Errorf("sync: %T cannot take device events", st)
	}
	rs, _, err := loadRules(envOr("CHIPDESK_JURISDICTION", defaultConfig().Jurisdiction))
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	// The events go through the application layer, as they do at the
	// service's /api/v1/sync.
	inc, err := incidents.New(&incidents.Opts{Store: st, Rules: rs, Jurisdiction: envOr("CHIPDESK_JURISDICTION", defaultConfig().Jurisdiction), Now: e.Now})
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	cus, err := custody.New(&custody.Opts{Store: st, Rules: rs, Now: e.Now})
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return &offline.StoreCentral{Store: cs, Events: &deviceEvents{inc: inc, custody: cus}}, func() { st.Close() }, nil
}

// deviceEvents hands each pushed event to the application service that
// owns its kind: a pickup to custody, scans and bites to incidents.
type deviceEvents struct {
	inc     *incidents.Service
	custody *custody.Service
}

func (d *deviceEvents) ApplyDeviceEvent(ctx context.Context, e *service.DeviceEvent) (bool, int64, error) {
	if e.Kind == service.DeviceImpound {
		return d.custody.ApplyDeviceEvent(ctx, e)
	}
	return d.inc.ApplyDeviceEvent(ctx, e)
}

func syncStatus(ctx context.Context, e *cmdline.Env, r *offline.Replica) error {
	all, err := r.Events(ctx, "")
	if err != nil {
		return err
	}
	counts := map[offline.State]int{}
	for _, q := range all {
		counts[q.State]++
	}
	pulled, err := r.PulledAt(ctx)
	if err != nil {
		return err
	}
	when := "never"
	if !pulled.IsZero() {
		when = pulled.UTC().Format("2006-01-02 15:04:05Z")
	}
	keyID, err := r.KeyID(ctx)
	if err != nil {
		return err
	}
	sealed := "not sealed (pull it to seal it under the device's key)"
	if keyID != "" {
		sealed = "sealed under key " + keyID + " (the PIN opens it)"
	}
	fmt.Fprintf(e.Stdout, "replica pulled: %s\nrecords %s\nqueued %d, applied %d, rejected %d\n",
		when, sealed, counts[offline.Queued], counts[offline.Applied], counts[offline.Rejected])
	if counts[offline.Rejected] == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "REJECTED\tKIND\tAT\tREASON")
	for _, q := range all {
		if q.State == offline.Rejected {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", q.Event.ID, q.Event.Kind, q.Event.At.UTC().Format("2006-01-02 15:04:05Z"), q.Detail)
		}
	}
	return tw.Flush()
}

// envDefault is the environment variable name's value, or def.
func envDefault(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
