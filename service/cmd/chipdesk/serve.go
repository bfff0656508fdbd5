package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/access"
	"github.com/chipdesk/chipdesk/service/custody"
	"github.com/chipdesk/chipdesk/service/events"
	"github.com/chipdesk/chipdesk/service/hardware"
	"github.com/chipdesk/chipdesk/service/httpapi"
	"github.com/chipdesk/chipdesk/service/incidents"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/licensing"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/permits"
	"github.com/chipdesk/chipdesk/service/rules"
)

// runServe is "chipdesk serve": the HTTP API, the pages, the configured
// readers and the printers and engravers that make queued tags, until
// ctx is done (SIGINT, SIGTERM).
func runServe(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() {
		fmt.Fprintln(e.Stderr, serveUsage)
		fs.PrintDefaults()
	}
	devKeys := fs.Bool("dev-keys", false, "make tags with the public development check-code keys when $CHIPDESK_TAG_KEYS is not set (demos and tests only; every page says so)")
	off := defineOfflineFlags(fs)
	cfg, err := loadConfig(fs, args, os.Getenv)
	if err != nil {
		return err
	}
	cfg.DevKeys = *devKeys
	if fs.NArg() > 0 {
		return cmdline.UsageError("serve: unexpected argument %q", fs.Arg(0))
	}
	if err := checkOfflineFlags(fs, off); err != nil {
		return err
	}
	if *off.on {
		return serveOffline(ctx, e, &cfg, off)
	}
	log := cfg.logger(e.Stderr)
	tuneGC(os.Getenv)
	a, err := openApp(ctx, &cfg, log, e.Now)
	if err != nil {
		return err
	}
	defer a.close()
	if err := a.listen(); err != nil {
		return err
	}
	log.Info("serving", "url", a.url(), "db", cfg.DB, "readers", len(cfg.Readers), "printers", len(cfg.Printers))
	return a.run(ctx)
}

// app is the wired service: store, rules, lookup, events, hardware,
// print and engrave jobs, and HTTP, shared by serve and demo.
type app struct {
	cfg    *config
	log    *slog.Logger
	store  backend
	lookup *lookup.Service
	// lic, custody and inc are the application layer every door calls.
	lic     *licensing.Service
	custody *custody.Service
	inc     *incidents.Service
	hub     *events.Hub
	pipe    *hardware.Pipeline
	hw      *hardware.Manager
	money   *money.Service
	// issuer queues tags (pages, API); worker makes them on printers,
	// nil when none is configured.
	issuer   *jobs.Orders
	printers []*jobs.Device
	worker   *jobs.Worker
	api      *httpapi.Server
	// access ends what revoked tokens and disabled accounts opened,
	// whichever process revoked them; stopAccess ends its polling.
	access     *access.Watcher
	stopAccess context.CancelFunc
	// photos is the photos folder ($CHIPDESK_PHOTOS), nil without one.
	photos *os.Root
	srv    *http.Server
	ln     net.Listener

	// permits decides kennel, stable, off-leash and other permits.
	permits *permits.Service
}

// openApp opens the store and wires everything; it does not listen yet.
func openApp(ctx context.Context, cfg *config, log *slog.Logger, now func() time.Time) (*app, error) {
	a := &app{cfg: cfg, log: log}
	rs, loc, err := loadRules(cfg.Jurisdiction)
	if err != nil {
		return nil, err
	}
	if a.store, err = openBackend(ctx, cfg.DB, now, loc); err != nil {
		return nil, err
	}
	users, _ := a.store.(service.UserService)
	a.access = access.NewWatcher(&access.WatchOpts{Tokens: a.store, Users: users, Logger: log})
	actx, stop := context.WithCancel(context.WithoutCancel(ctx))
	a.stopAccess = stop
	go a.access.Run(actx)
	if a.lookup, err = lookup.New(&lookup.Opts{Store: a.store, Rules: rs, Jurisdiction: cfg.Jurisdiction, Locale: cfg.Locale, Now: now}); err != nil {
		a.close()
		return nil, err
	}
	if err := a.openLayer(rs, now); err != nil {
		a.close()
		return nil, err
	}
	if a.permits, err = permits.New(&permits.Opts{Store: a.store, Rules: rs, Bites: a.inc, Money: a.money, Now: now}); err != nil {
		a.close()
		return nil, err
	}
	a.hub = events.New(nil)
	if a.pipe, err = hardware.NewPipeline(&hardware.PipelineOpts{
		Lookup: a.lookup, Scans: a.store, Hub: a.hub, Logger: log, Now: now, Site: cfg.Site,
	}); err != nil {
		a.close()
		return nil, err
	}
	if a.hw, err = hardware.NewManager(&hardware.ManagerOpts{Pipeline: a.pipe, Logger: log, Now: now}); err != nil {
		a.close()
		return nil, err
	}
	for _, spec := range cfg.Readers {
		if err := a.hw.Add(spec); err != nil {
			a.close()
			return nil, err
		}
	}
	if err := a.openJobs(rs, now); err != nil {
		a.close()
		return nil, err
	}
	if a.photos, err = openPhotos(); err != nil {
		a.close()
		return nil, err
	}
	pages, err := newWeb(a, rs, log, now)
	if err != nil {
		a.close()
		return nil, err
	}
	if a.api, err = httpapi.New(&httpapi.Opts{
		Store: a.store, Lookup: a.lookup, Hub: a.hub, Scans: a.pipe, Logger: log, Now: now, MaxBodyBytes: cfg.MaxBodyBytes,
		Web: pages, Jobs: a.issuer, Worker: a.worker, Licensing: a.lic, Custody: a.custody, Incidents: a.inc,
		Access: a.access, Limits: &cfg.Limits, Photos: a.photos, Money: a.money, Permits: a.permits, SiteScoped: cfg.SiteScoped,
	}); err != nil {
		a.close()
		return nil, err
	}
	a.srv = newHTTPServer(withSync(a.api, a.api.Guard, a.store, a.inc, a.custody, log), log)
	return a, nil
}

// newHTTPServer is the service's HTTP server for h, with its timeouts.
func newHTTPServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second, // the scan stream lifts its own
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// openLayer makes the application layer over the store and the rules.
func (a *app) openLayer(rs *rules.Set, now func() time.Time) (err error) {
	if a.lic, err = licensing.New(&licensing.Opts{Store: a.store, Rules: rs, Now: now}); err != nil {
		return err
	}
	if a.money, err = money.New(&money.Opts{Store: a.store, Rules: rs, Now: now}); err != nil {
		return err
	}
	if a.custody, err = custody.New(&custody.Opts{Store: a.store, Rules: rs, Money: a.money, Now: now}); err != nil {
		return err
	}
	a.inc, err = incidents.New(&incidents.Opts{Store: a.store, Rules: rs, Jurisdiction: a.lookup.Home(), Now: now})
	return err
}

// listen binds the configured address.
func (a *app) listen() error {
	ln, err := net.Listen("tcp", a.cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	a.ln = ln
	return nil
}

// url is the base URL of the listener.
func (a *app) url() string {
	addr := a.ln.Addr().(*net.TCPAddr)
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, fmt.Sprint(addr.Port))
}

// openJobs makes the tag orders and, when printers are configured, the
// worker that makes queued tags on them. The printers are opened when
// first needed (jobs.Pending), so one switched off at start is used once
// it is on.
func (a *app) openJobs(rs *rules.Set, now func() time.Time) error {
	is, err := newOrders(a.store, rs, a.log, a.cfg.DevKeys)
	if err != nil {
		return err
	}
	a.issuer = is
	if len(a.cfg.Printers) == 0 {
		return nil
	}
	if a.printers, err = jobs.PendingDevices(a.cfg.Printers); err != nil {
		return err
	}
	if a.cfg.Previews != "" {
		if err := os.MkdirAll(a.cfg.Previews, 0o755); err != nil {
			return fmt.Errorf("previews: %w", err)
		}
	}
	a.worker, err = jobs.New(a.printers, &jobs.Opts{Orders: is, Previews: a.cfg.Previews, Logger: a.log, Now: now,
		OnEvent: a.jobEvent})
	return err
}

// jobEvent logs the end of every job and batch.
func (a *app) jobEvent(ev jobs.Event) {
	what := []any{"device", ev.Device, "kind", ev.Kind, "jurisdiction", ev.Jurisdiction, "year", ev.Year, "tag", ev.Tag}
	if ev.Job != 0 {
		what = append(what, "job", ev.Job)
	} else {
		what = append(what, "batch", ev.Batch, "done", ev.Done, "total", ev.Total)
	}
	switch ev.State {
	case service.JobDone:
		a.log.Info("tag made", what...)
	case service.JobFailed:
		a.log.Warn("tag failed", append(what, "err", ev.Error)...)
	}
}

// run serves HTTP and runs the readers and the printers until ctx is
// done, then shuts down gracefully: stop accepting, end event streams,
// finish requests (at most 10 s), stop the printers (a job cut short is
// recorded as interrupted), stop readers, flush the audit log.
func (a *app) run(ctx context.Context) error {
	hwDone := make(chan error, 1)
	hctx, stopHW := context.WithCancel(ctx)
	defer stopHW()
	go func() { hwDone <- a.hw.Run(hctx) }()

	jobsDone := make(chan error, 1)
	jctx, stopJobs := context.WithCancel(ctx)
	defer stopJobs()
	if a.worker != nil {
		go func() { jobsDone <- a.worker.Run(jctx) }()
	} else {
		jobsDone <- nil
	}

	srvDone := make(chan error, 1)
	go func() { srvDone <- a.srv.Serve(a.ln) }()

	var err error
	select {
	case <-ctx.Done():
	case err = <-srvDone:
	}
	a.log.Info("shutting down")
	a.hub.Close() // ends event streams so Shutdown need not wait for them
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if serr := a.srv.Shutdown(sctx); serr != nil && err == nil {
		err = serr
	}
	stopJobs()
	if jerr := <-jobsDone; jerr != nil && !errors.Is(jerr, context.Canceled) && err == nil {
		err = jerr
	}
	stopHW()
	if herr := <-hwDone; herr != nil && !errors.Is(herr, context.Canceled) && err == nil {
		err = herr
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// close releases everything openApp made.
func (a *app) close() {
	if a.photos != nil {
		defer a.photos.Close()
	}
	if a.stopAccess != nil {
		a.stopAccess()
	}
	if a.api != nil {
		a.api.Close()
	}
	if a.hub != nil {
		a.hub.Close()
	}
	for _, d := range a.printers {
		d.Close()
	}
	if a.store != nil {
		a.store.Close()
	}
}
