package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/events"
	"github.com/chipdesk/chipdesk/service/hardware"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/offline"
	"github.com/chipdesk/chipdesk/service/web"
)

// serveUsage heads serve's flags in "chipdesk serve --help".
const serveUsage = `usage:
  chipdesk serve [flags]
      the HTTP API and the pages on the database (--db), the readers (--reader) and the printers
      and engravers (--printer), until signalled
  chipdesk serve --offline --replica FILE [--pin PIN|-] [--reader SPEC] [--listen 127.0.0.1:PORT]
      the handheld's page: the officer's lookup (a chip, or a tag by city, year and number) answered
      from the offline copy that chipdesk sync pulled, with the copy's time; the reads of --reader
      shown live and queued as scans; bites, pickups and field notes queued in the copy for the next
      chipdesk sync push. It listens on loopback only (127.0.0.1 or ::1) and asks for no sign-in: the
      officer's PIN (--pin, $CHIPDESK_PIN, or - to read it from standard input) opens the copy when
      it starts. A copy older than --max-age answers no lookup (the page says so); events are still
      queued.
flags:`

// offlineFlags are serve's flags of the handheld's page.
type offlineFlags struct {
	on                         *bool
	replica, pin, device, user *string
	maxAge                     *time.Duration
}

// offlineOnly are the flags that mean nothing without --offline.
var offlineOnly = []string{"replica", "pin", "device", "max-age", "user"}

// onlineOnly are the flags that mean nothing on the handheld's page.
var onlineOnly = []string{"db", "printer", "previews", "dev-keys"}

func defineOfflineFlags(fs *flag.FlagSet) *offlineFlags {
	host, _ := os.Hostname()
	return &offlineFlags{
		on:      fs.Bool("offline", false, "serve the handheld's page from the offline copy (--replica) on loopback"),
		replica: fs.String("replica", envDefault("CHIPDESK_REPLICA", "chipdesk-replica.db"), "the offline copy `file` that chipdesk sync pulls (--offline)"),
		pin:     fs.String("pin", os.Getenv("CHIPDESK_PIN"), "the officer's `PIN`, which opens the copy (--offline; - reads it from standard input)"),
		device:  fs.String("device", envDefault("CHIPDESK_DEVICE", host), "device `name` stamped on queued events (--offline)"),
		user:    fs.String("user", os.Getenv("USER"), "officer `name` stamped on queued events (--offline)"),
		maxAge:  fs.Duration("max-age", offline.DefaultMaxAge, "refuse lookups from a copy older than this (--offline)"),
	}
}

// checkOfflineFlags refuses the flags of the other mode.
func checkOfflineFlags(fs *flag.FlagSet, o *offlineFlags) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	wrong, mode := offlineOnly, "needs --offline"
	if *o.on {
		wrong, mode = onlineOnly, "has no use with --offline (the handheld's page reads the copy only)"
	}
	for _, n := range wrong {
		if set[n] {
			return cmdline.UsageError("serve: --%s %s", n, mode)
		}
	}
	return nil
}

// loopbackOnly refuses a listen address that is not a loopback one:
// the handheld's page shows owners' names and phones with no sign-in.
func loopbackOnly(listen string) error {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return cmdline.UsageError("serve --offline: --listen %q: want 127.0.0.1:PORT (%v)", listen, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return cmdline.UsageError("serve --offline: --listen %s is not a loopback address: the handheld's page shows owners' names and phones without a sign-in, so it listens on 127.0.0.1 or ::1 only (--listen 127.0.0.1:PORT)", listen)
	}
	return nil
}

// serveOffline is "chipdesk serve --offline": the handheld's page over
// the replica, fed by the handheld's readers through the same Pipeline
// as the desk's (the replica is its scan store: each read is queued),
// until ctx is done.
func serveOffline(ctx context.Context, e *cmdline.Env, cfg *config, o *offlineFlags) error {
	if err := loopbackOnly(cfg.Listen); err != nil {
		return err
	}
	path := *o.replica
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		return cmdline.Exit(1, fmt.Errorf("serve --offline: --replica %s: no offline copy there; pull one first (chipdesk sync pull --replica %s)", path, path))
	}
	if !offline.IsReplica(path) {
		return cmdline.Exit(1, fmt.Errorf("serve --offline: --replica %s is not a handheld's replica (the central service's database, or another file): give it the file chipdesk sync pulls", path))
	}
	pin := *o.pin
	if pin == "-" {
		var err error
		if pin, err = readPIN(e.Stdin); err != nil {
			return cmdline.Exit(1, err)
		}
	}
	log := cfg.logger(e.Stderr)
	rs, loc, err := loadRules(cfg.Jurisdiction)
	if err != nil {
		return err
	}
	r, err := offline.Open(ctx, path, &offline.Opts{Device: *o.device, User: *o.user, Site: cfg.Site, Now: e.Now, Location: loc, MaxAge: *o.maxAge, PIN: pin})
	if err != nil {
		return cmdline.Exit(1, err)
	}
	defer r.Close()
	if err := r.Unlock(ctx); err != nil {
		return cmdline.Exit(1, fmt.Errorf("serve --offline: %s", service.ErrorMessage(err)))
	}
	lk, err := lookup.New(&lookup.Opts{Store: r, Rules: rs, Jurisdiction: cfg.Jurisdiction, Locale: cfg.Locale, Now: e.Now})
	if err != nil {
		return err
	}
	a := &app{cfg: cfg, log: log, hub: events.New(nil)}
	defer a.close()
	if a.pipe, err = hardware.NewPipeline(&hardware.PipelineOpts{Lookup: lk, Scans: r, Hub: a.hub, Logger: log, Now: e.Now, Site: cfg.Site}); err != nil {
		return err
	}
	if a.hw, err = hardware.NewManager(&hardware.ManagerOpts{Pipeline: a.pipe, Logger: log, Now: e.Now}); err != nil {
		return err
	}
	var readers []string
	for _, spec := range cfg.Readers {
		sp, err := hardware.ParseSpec(spec)
		if err != nil {
			return cmdline.Exit(1, fmt.Errorf("serve --offline: --reader: %w", err))
		}
		if err := a.hw.AddSpec(sp); err != nil {
			return cmdline.Exit(1, err)
		}
		readers = append(readers, sp.Name)
	}
	page, err := web.NewField(&web.FieldOpts{Lookup: lk, Copy: r, Hub: a.hub, Readers: readers, Officer: *o.user,
		Jurisdiction: cfg.Jurisdiction, Logger: log, Now: e.Now})
	if err != nil {
		return err
	}
	a.srv = newHTTPServer(page, log)
	if err := a.listen(); err != nil {
		return err
	}
	pulled, err := r.PulledAt(ctx)
	if err != nil {
		return err
	}
	log.Info("serving", "url", a.url(), "page", "handheld", "replica", path, "copy_as_of", pulled.UTC().Format(time.RFC3339), "readers", len(readers))
	if stale := r.Stale(ctx); stale != nil {
		log.Warn("the offline copy answers no lookup", "why", service.ErrorMessage(stale))
	}
	return a.run(ctx)
}
