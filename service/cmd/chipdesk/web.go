package main

import (
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/web"
	"github.com/chipdesk/chipdesk/tags"
	"github.com/chipdesk/chipdesk/tags/check"
)

// newIssuer makes the tag issuer shared by the pages, the API and the
// job runner. Tag designs are the built-in ones; the check-code keys
// come from $CHIPDESK_TAG_KEYS, else the public development keys (said
// in the log).
func newIssuer(store service.Store, rs *rules.Set, log *slog.Logger) (*jobs.Issuer, error) {
	designs, err := tags.LoadDesigns("")
	if err != nil {
		return nil, err
	}
	keys := check.DevelopmentKeys()
	if p := os.Getenv("CHIPDESK_TAG_KEYS"); p != "" {
		if keys, err = check.LoadKeys(p); err != nil {
			return nil, err
		}
	} else {
		log.Warn("web: no CHIPDESK_TAG_KEYS: tag previews use the public DEVELOPMENT keys")
	}
	return &jobs.Issuer{Store: store, Rules: rs, Designs: designs, Keys: keys}, nil
}

// newWeb builds the pages (package web) served at / by serve and demo.
// Print and engrave jobs queued on the pages wake the app's job runner
// (--printer); without one they wait for "chipdesk print run". The
// admin page lists the readers and the printers.
// $CHIPDESK_SECURE_COOKIES=1 marks the session cookie Secure behind a
// TLS proxy; $CHIPDESK_PHOTOS names the folder of the animals'
// photographs.
func newWeb(a *app, rs *rules.Set, log *slog.Logger, now func() time.Time) (http.Handler, error) {
	var photos fs.FS
	if dir := os.Getenv("CHIPDESK_PHOTOS"); dir != "" {
		photos = os.DirFS(dir)
	}
	devices := web.DeviceList{web.ReaderDevices(a.hw, now)}
	var wake func()
	if a.runner != nil {
		devices = append(devices, web.JobDevices(a.runner))
		wake = a.runner.Wake
	}
	return web.New(&web.Opts{
		Photos: photos,
		Store:  a.store, Lookup: a.lookup, Rules: rs, Hub: a.hub,
		Jobs:          a.issuer,
		Money:         a.money,
		Devices:       devices,
		Wake:          wake,
		Jurisdiction:  a.cfg.Jurisdiction,
		SecureCookies: os.Getenv("CHIPDESK_SECURE_COOKIES") == "1",
		Logger:        log, Now: now,
	})
}
