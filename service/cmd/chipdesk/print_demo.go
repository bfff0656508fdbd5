package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/grblsim"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/zplsim"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/tags"
	"github.com/chipdesk/chipdesk/tags/check"
)

// demoPrinting runs the print queue of "chipdesk demo" until ctx ends:
// a simulated ZPL printer on loopback and a simulated GRBL laser on a
// pseudo-terminal make the tag of every licence (the seeded ones and
// those sold meanwhile), and a PNG of each tag made is written to
// DIR/previews. Problems are reported on stderr; the demo goes on.
func demoPrinting(ctx context.Context, e *env, store service.Store, dir string) {
	fail := func(err error) { fmt.Fprintf(e.stderr, "demo: printing: %v\n", err) }
	rs, err := rules.Embedded()
	if err != nil {
		fail(err)
		return
	}
	ds, err := tags.LoadDesigns("")
	if err != nil {
		fail(err)
		return
	}
	printer, err := zplsim.Listen(nil)
	if err != nil {
		fail(err)
		return
	}
	defer printer.Close()
	laser, err := grblsim.Start(nil)
	if err != nil {
		fail(err)
		return
	}
	defer laser.Close()
	previews := filepath.Join(dir, "previews")
	fmt.Fprintf(e.stderr, "demo: tags print on a simulated ZPL printer at %s (laser on %s); PNG previews in %s\n",
		printer.Addr(), laser.TTY(), previews)
	is := &jobs.Issuer{Store: store, Rules: rs, Designs: ds, Keys: check.DevelopmentKeys()}
	if err := jobs.Demo(ctx, jobs.DemoOpts{Issuer: is, Printer: printer.Addr(), Engraver: laser.TTY(),
		Previews: previews, Now: e.now}); err != nil {
		fail(err)
	}
}
