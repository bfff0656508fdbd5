package main

import (
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/web"
	"github.com/chipdesk/chipdesk/tags"
	"github.com/chipdesk/chipdesk/tags/check"
)

// newWeb builds the pages (package web) served at / by serve and demo.
// Tag designs are the built-in ones; the check-code keys come from
// $CHIPDESK_TAG_KEYS, else the public development keys (said in the
// log). Print and engrave jobs queued on the pages wait for a job
// runner ("chipdesk print", the demo's simulated printers).
// $CHIPDESK_SECURE_COOKIES=1 marks the session cookie Secure behind a
// TLS proxy; $CHIPDESK_PHOTOS names the folder of the animals'
// photographs.
func newWeb(a *app, rs *rules.Set, log *slog.Logger, now func() time.Time) (http.Handler, error) {
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
	var photos fs.FS
	if dir := os.Getenv("CHIPDESK_PHOTOS"); dir != "" {
		photos = os.DirFS(dir)
	}
	return web.New(&web.Opts{
		Photos: photos,
		Store:  a.store, Lookup: a.lookup, Rules: rs, Hub: a.hub,
		Jobs:          &jobs.Issuer{Store: a.store, Rules: rs, Designs: designs, Keys: keys},
		Devices:       web.ReaderDevices(a.hw, now),
		Jurisdiction:  a.cfg.Jurisdiction,
		SecureCookies: os.Getenv("CHIPDESK_SECURE_COOKIES") == "1",
		Logger:        log, Now: now,
	})
}
