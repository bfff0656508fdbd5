package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/incidents"
	"github.com/chipdesk/chipdesk/service/offline"
)

const syncUsage = `usage:
  chipdesk sync [--central URL|DB] [--token T] [--push-only]   push queued events, then pull a fresh replica
  chipdesk sync scan CHIP                                      look a chip up offline and queue the scan
  chipdesk sync status                                         count queued, applied and rejected events
common flags: --replica FILE (default $CHIPDESK_REPLICA, else chipdesk-replica.db),
--device NAME (default $CHIPDESK_DEVICE, else the host name), --user NAME, --site NAME.
--central is an https:// URL where the service mounts the sync handler (with --token), or a
database (SQLite file or postgres:// URL) reached directly; default $CHIPDESK_CENTRAL.
The conflict rules are in service/offline/README.md.`

// runSync is "chipdesk sync [scan|status]": the offline handheld's
// replica and its reconciliation with the central service.
func runSync(ctx context.Context, e *cmdline.Env, args []string) error {
	sub := ""
	if len(args) > 0 && (args[0] == "scan" || args[0] == "status") {
		sub, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("sync", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() { fmt.Fprintln(e.Stderr, syncUsage) }
	host, _ := os.Hostname()
	var (
		replica  = fs.String("replica", envDefault("CHIPDESK_REPLICA", "chipdesk-replica.db"), "replica `file`")
		central  = fs.String("central", os.Getenv("CHIPDESK_CENTRAL"), "central service `URL` or database")
		token    = fs.String("token", os.Getenv("CHIPDESK_TOKEN"), "API `token` for an https:// central")
		device   = fs.String("device", envDefault("CHIPDESK_DEVICE", host), "device `name` stamped on events")
		user     = fs.String("user", os.Getenv("USER"), "officer `name` stamped on events")
		site     = fs.String("site", os.Getenv("CHIPDESK_SITE"), "`site` stamped on events")
		reader   = fs.String("reader", "", "reader `name` on queued scans (scan; default the device)")
		pushOnly = fs.Bool("push-only", false, "push the queue, do not pull")
	)
	pos, err := cmdline.ParseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	} else if err != nil {
		return cmdline.Exit(2, nil)
	}
	r, err := offline.Open(ctx, *replica, &offline.Opts{Device: *device, User: *user, Site: *site, Now: e.Now})
	if err != nil {
		return err
	}
	defer r.Close()
	switch sub {
	case "scan":
		if len(pos) != 1 {
			return cmdline.UsageError("sync scan: want one chip number\n%s", syncUsage)
		}
		id, err := chipid.Parse(pos[0], nil)
		if err != nil {
			return cmdline.Exit(1, fmt.Errorf("sync scan: %w", err))
		}
		rec, err := r.FindRecordByChip(ctx, id.Code)
		if err != nil && service.ErrorCode(err) != service.ENOTFOUND {
			return err
		}
		name := *reader
		if name == "" {
			name = *device
		}
		ev, qerr := r.RecordScan(ctx, id, name)
		if qerr != nil {
			return qerr
		}
		if rec == nil {
			fmt.Fprintf(e.Stdout, "%s: not in the offline copy\n", id.Code)
		} else {
			enc := json.NewEncoder(e.Stdout)
			enc.SetIndent("", "  ")
			if err := enc.Encode(rec); err != nil {
				return err
			}
		}
		fmt.Fprintf(e.Stderr, "queued scan %s\n", ev.ID)
		return nil
	case "status":
		if len(pos) != 0 {
			return cmdline.UsageError("sync status: unexpected argument %q", pos[0])
		}
		return syncStatus(ctx, e, r)
	}
	if len(pos) != 0 {
		return cmdline.UsageError("sync: unexpected argument %q\n%s", pos[0], syncUsage)
	}
	if *central == "" {
		return cmdline.UsageError("sync: --central (or CHIPDESK_CENTRAL) is required")
	}
	c, closeCentral, err := openCentral(ctx, *central, *token, e)
	if err != nil {
		return err
	}
	defer closeCentral()
	rep, err := offline.Sync(ctx, r, c, &offline.SyncOpts{NoPull: *pushOnly})
	fmt.Fprintf(e.Stdout, "pushed %d: %d applied, %d duplicates, %d rejected; %d still queued\n",
		rep.Pushed, rep.Applied, rep.Duplicates, rep.Rejected, rep.Queued)
	if err != nil {
		return err
	}
	if !*pushOnly {
		fmt.Fprintf(e.Stdout, "replica: %d records\n", rep.Records)
	}
	if rep.Rejected > 0 {
		fmt.Fprintln(e.Stdout, "rejected events are kept on the device: chipdesk sync status lists them")
	}
	return nil
}

// syncPrefix is where serve mounts the handhelds' sync endpoints.
const syncPrefix = "/api/v1/sync"

// withSync serves the offline handhelds' sync endpoints (offline.Handler,
// officer and admin tokens) under syncPrefix, and every other path with
// next. guard, when set, puts the endpoints behind the API's guard (the
// bad-token limit, refusals audited; httpapi.Server.Guard).
func withSync(next http.Handler, guard func(http.Handler, ...service.Role) http.Handler, st backend, inc *incidents.Service, log *slog.Logger) http.Handler {
	cs, ok := st.(offline.CentralStore)
	if !ok {
		return next
	}
	central := &offline.StoreCentral{Store: cs}
	if inc != nil {
		central.Events = inc
	}
	var h http.Handler = http.StripPrefix(syncPrefix,
		offline.Handler(central, &offline.HandlerOpts{Tokens: st, Logger: log, Audit: st}))
	if guard != nil {
		h = guard(h, service.RoleOfficer)
	}
	mux := http.NewServeMux()
	mux.Handle(syncPrefix+"/", h)
	mux.Handle("/", next)
	return mux
}

// openCentral reaches the central service: over HTTP for an http(s)://
// URL, else directly on its database.
func openCentral(ctx context.Context, target, token string, e *cmdline.Env) (offline.Central, func(), error) {
	if strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "http://") {
		return &offline.HTTPClient{URL: target, Token: token}, func() {}, nil
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
	return &offline.StoreCentral{Store: cs, Events: inc}, func() { st.Close() }, nil
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
	fmt.Fprintf(e.Stdout, "replica pulled: %s\nqueued %d, applied %d, rejected %d\n",
		when, counts[offline.Queued], counts[offline.Applied], counts[offline.Rejected])
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
