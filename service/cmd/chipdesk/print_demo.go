package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/grblsim"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/zplsim"
	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/jobs"
)

// demoPrinters starts the printers of "chipdesk demo": a simulated ZPL
// printer on loopback and a simulated GRBL laser on a pseudo-terminal.
// It sets them, and the folder DIR/previews that receives a PNG of each
// tag made, in cfg, so that the demo's job worker is serve's (--printer,
// --previews). stop closes the simulators. When one cannot start, the
// problem is reported on stderr and the demo goes on without printers.
func demoPrinters(e *cmdline.Env, cfg *config, dir string) (stop func()) {
	printer, err := zplsim.Listen(nil)
	if err != nil {
		fmt.Fprintf(e.Stderr, "demo: printing: %v\n", err)
		return func() {}
	}
	laser, err := grblsim.Start(&grblsim.Opts{LaserMode: true}) // a controller set up for a laser
	if err != nil {
		printer.Close()
		fmt.Fprintf(e.Stderr, "demo: printing: %v\n", err)
		return func() {}
	}
	cfg.Printers = []string{
		"zpl:" + printer.Addr() + ",name=demo-zebra",
		"grbl:" + laser.TTY() + ",name=demo-laser,speed=3000",
	}
	cfg.Previews = filepath.Join(dir, "previews")
	fmt.Fprintf(e.Stderr, "demo: tags print on a simulated ZPL printer at %s (laser on %s); PNG previews in %s\n",
		printer.Addr(), laser.TTY(), cfg.Previews)
	return func() {
		laser.Close()
		printer.Close()
	}
}

// demoApprove approves the tag designs of the demo's years, those of
// the licences seeded (sold up to 450 days back) to the next one, as an
// admin would before the first sale: the Print button is there from
// the start.
func demoApprove(ctx context.Context, e *cmdline.Env, a *app) {
	now := e.Now()
	if err := a.issuer.ApproveAll(ctx, "demo", now, now.Year()-2, now.Year()-1, now.Year(), now.Year()+1); err != nil {
		fmt.Fprintf(e.Stderr, "demo: approving the designs: %v\n", err)
	}
}

// demoQueueTags queues the tag of every seeded licence on the printer
// and wakes the worker.
func demoQueueTags(ctx context.Context, e *cmdline.Env, a *app) {
	if a.worker == nil {
		return
	}
	if _, err := jobs.QueueActive(ctx, a.issuer, service.JobPrint); err != nil {
		fmt.Fprintf(e.Stderr, "demo: printing: %v\n", err)
	}
	a.worker.Wake()
}

// demoOfficerScans records a few scans of the demo's chips as the
// officer's handheld would have sent them this morning, so that the
// officer's page lists its own recent scans.
func demoOfficerScans(ctx context.Context, a *app, chips []string, officer string, now time.Time) error {
	for i, c := range chips[:min(3, len(chips))] {
		id, err := a.lookup.ParseChip(c)
		if err != nil {
			return err
		}
		sc := &service.Scan{At: now.Add(-time.Duration(90-20*i) * time.Minute).UTC(), Reader: "handheld-3", ChipCode: id.Code, ChipKind: id.Kind, User: officer}
		if ans, err := a.lookup.ByID(ctx, id); err == nil && ans.Found && ans.Animal != nil {
			sc.AnimalID = ans.Animal.ID
		}
		if err := a.store.CreateScan(ctx, sc); err != nil {
			return err
		}
	}
	return nil
}
