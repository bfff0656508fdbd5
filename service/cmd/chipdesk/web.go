package main

import (
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
// TLS proxy.
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
	return web.New(&web.Opts{
		Store: a.store, Lookup: a.lookup, Rules: rs, Hub: a.hub,
		Jobs:          &jobs.Issuer{Store: a.store, Rules: rs, Designs: designs, Keys: keys},
		Devices:       web.ReaderDevices(a.hw, now),
		Jurisdiction:  a.cfg.Jurisdiction,
		SecureCookies: os.Getenv("CHIPDESK_SECURE_COOKIES") == "1",
		Logger:        log, Now: now,
	})
}
