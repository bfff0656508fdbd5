package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/licensing"
)

// demoReader is the simulated reader's name: the desk the page watches.
const demoReader = "front-desk"

// runDemo is "chipdesk demo": the service on a temporary SQLite database
// seeded with records of both cities, a simulated WL-134 reader on a
// pseudo-terminal that scans a chip every few seconds, simulated
// printers that make the licence tags, and a URL that signs the browser
// in.
func runDemo(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	listen := fs.String("listen", "127.0.0.1:8080", "HTTP listen `address` (another free port when taken)")
	every := fs.Duration("every", 4*time.Second, "simulated scan `interval`")
	keep := fs.Bool("keep", false, "keep the temporary database when done")
	kind := fs.String("reader", "wl134", "simulated reader `protocol`")
	level := fs.String("log-level", "info", "log `level`")
	if _, err := cmdline.ParseArgs(fs, args); err != nil {
		return cmdline.FlagError(err)
	}
	if fs.NArg() > 0 {
		return cmdline.UsageError("demo: unexpected argument %q", fs.Arg(0))
	}
	if *every <= 0 {
		return cmdline.UsageError("demo: -every must be positive")
	}
	dir, err := os.MkdirTemp("", "chipdesk-demo-")
	if err != nil {
		return err
	}
	if *keep {
		fmt.Fprintf(e.Stderr, "database kept in %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}

	sim, err := readersim.Start(&readersim.Opts{Protocol: *kind})
	if err != nil {
		return err
	}
	defer sim.Close()

	cfg := defaultConfig()
	cfg.DB = filepath.Join(dir, "demo.db")
	cfg.Listen = *listen
	cfg.LogLevel = *level
	cfg.Site = "demo shelter"
	cfg.DevKeys = true // the demo's tags are the development keys' (marked)
	cfg.Readers = []string{*kind + ":" + sim.Path() + ",name=" + demoReader}
	defer demoPrinters(e, &cfg, dir)()
	if err := cfg.check(); err != nil {
		return cmdline.UsageError("demo: %v", err)
	}
	log := cfg.logger(e.Stderr)
	a, err := openApp(ctx, &cfg, log, e.Now)
	if err != nil {
		return err
	}
	defer a.close()
	if err := a.listen(); err != nil {
		var oe *net.OpError
		if !errors.As(err, &oe) {
			return err
		}
		cfg.Listen = "127.0.0.1:0"
		if err := a.listen(); err != nil {
			return err
		}
	}
	chips, err := seedDemo(ctx, a, e.Now())
	if err != nil {
		return fmt.Errorf("demo: seeding: %w", err)
	}
	demoApprove(ctx, e, a) // print_demo.go
	admin, err := a.store.CreateToken(ctx, &service.Token{Name: "demo-admin", Role: service.RoleAdmin, Site: cfg.Site})
	if err != nil {
		return err
	}
	intake, err := a.store.CreateToken(ctx, &service.Token{Name: "demo-intake", Role: service.RoleIntake, Site: cfg.Site})
	if err != nil {
		return err
	}
	officer, err := a.store.CreateToken(ctx, &service.Token{Name: "demo-officer", Role: service.RoleOfficer, Site: cfg.Site})
	if err != nil {
		return err
	}
	if err := demoOfficerScans(ctx, a, chips, "demo-officer", e.Now()); err != nil { // print_demo.go
		return err
	}
	base := a.url()
	login := base + "/login?token=" + url.QueryEscape(admin) + "&reader=" + url.QueryEscape(demoReader)
	fmt.Fprintf(e.Stdout, `chipdesk demo is running.

  Open:          %s
                 (signs you in as admin and shows the %s reader's scans live)
  Admin token:   %s
  Intake token:  %s
  Officer token: %s
  Reader:        simulated %s on %s, a scan every %s

  Try:  curl -H 'Authorization: Bearer %s' '%s/api/v1/lookup?chip=%s'
        curl -N -H 'Authorization: Bearer %s' '%s/api/v1/scans/stream?reader=%s'

Stop with Ctrl-C.
`, login, demoReader, admin, intake, officer, *kind, sim.Path(), *every, intake, base, chips[0], intake, base, demoReader)

	demoQueueTags(ctx, e, a) // print_demo.go
	go demoScans(ctx, sim, chips, *every, e)
	return a.run(ctx)
}

// demoScans scans the chips in turn, one every interval, until ctx is done.
func demoScans(ctx context.Context, sim *readersim.Sim, chips []string, every time.Duration, e *cmdline.Env) {
	t := time.NewTicker(every)
	defer t.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := sim.SendText(ctx, chips[i%len(chips)]); err != nil && ctx.Err() == nil {
			fmt.Fprintf(e.Stderr, "demo: simulated scan: %v\n", err)
		}
	}
}

// demoOwner is one household of the demo data.
type demoOwner struct {
	owner   service.Owner
	animals []demoAnimal
}

type demoAnimal struct {
	animal service.Animal
	chip   string
	// vaccinated is days before today; 0 means never.
	vaccinated int
	vaccine    service.VaccineType
	months     int
	// licensed is days before today a licence was bought; 0 means never.
	licensed     int
	jurisdiction string
	feeCents     *int64 // for fees the ordinance leaves to a resolution
	after        func(ctx context.Context, a *app, animal int64, today service.Date) error
}

// seedDemo stores realistic records for Minneapolis and Chanhassen and
// returns the chips the simulated reader scans, in order: a dangerous
// dog first, then the rest, two of them registered nowhere here.
func seedDemo(ctx context.Context, a *app, now time.Time) ([]string, error) {
	today, err := a.lookup.Today("minneapolis")
	if err != nil {
		return nil, err
	}
	chanhassenFee := int64(2500) // Chanhassen sets its fees by resolution (5-53): an example amount
	households := []demoOwner{
		{owner: service.Owner{Name: "Marcus Bell", Address: "2816 Bloomington Ave", City: "Minneapolis", State: "MN", Postcode: "55407", Phone: "612-555-0182"},
			animals: []demoAnimal{{
				animal: service.Animal{Name: "Tank", Species: service.Dog, Breed: "Rottweiler mix", Colour: "black and tan", Sex: service.Male, BirthDate: today.AddYears(-5)},
				chip:   "982009104515221", vaccinated: 200, vaccine: service.VaccineKilled, months: 36, licensed: 180, jurisdiction: "minneapolis",
				after: func(ctx context.Context, a *app, id int64, today service.Date) error {
					b, err := a.inc.RecordBite(ctx, &service.BiteIncident{AnimalID: id, Date: today.AddDays(-40), Victim: service.VictimPerson, SkinBroken: true, Location: "E 28th St"})
					if err != nil {
						return err
					}
					if err := a.store.ReleaseQuarantine(ctx, b.Quarantine.ID, b.Quarantine.End); err != nil {
						return err
					}
					return a.store.CreateDesignation(ctx, &service.DangerousDesignation{AnimalID: id, Level: service.Dangerous, Jurisdiction: "minneapolis",
						DeclaredOn: today.AddDays(-20), Authority: "Minneapolis Animal Care & Control", RegistrationNumber: "MPLS-DD-2026-014",
						MicrochipOn: today.AddDays(-18), InsuredOn: today.AddDays(-15), InsuranceCents: 30_000_000, InsuranceExpires: today.AddDays(350)})
				},
			}}},
		{owner: service.Owner{Name: "Ada Lindqvist", Address: "3401 Chicago Ave", City: "Minneapolis", State: "MN", Postcode: "55407", Phone: "612-555-0147", Email: "ada@example.org"},
			animals: []demoAnimal{{
				animal: service.Animal{Name: "Biscuit", Species: service.Dog, Breed: "Labrador mix", Colour: "yellow", Sex: service.Male, Altered: true, BirthDate: today.AddYears(-3)},
				chip:   "985121004515220", vaccinated: 60, vaccine: service.VaccineKilled, months: 36, licensed: 50, jurisdiction: "minneapolis",
			}}},
		{owner: service.Owner{Name: "Karin Solberg", Address: "7700 Market Blvd", City: "Chanhassen", State: "MN", Postcode: "55317", Phone: "952-555-0133"},
			animals: []demoAnimal{{
				animal: service.Animal{Name: "Moose", Species: service.Dog, Breed: "Bernese Mountain Dog", Colour: "tricolour", Sex: service.Male, Altered: true, BirthDate: today.AddYears(-4)},
				chip:   "985141000654321", vaccinated: 100, vaccine: service.VaccineModifiedLive, months: 12, licensed: 90, jurisdiction: "chanhassen", feeCents: &chanhassenFee,
				after: func(ctx context.Context, a *app, id int64, today service.Date) error {
					_, err := a.inc.RecordBite(ctx, &service.BiteIncident{AnimalID: id, Date: today.AddDays(-3), Victim: service.VictimPerson, SkinBroken: true, Location: "Lake Ann Park"})
					return err
				},
			}}},
		{owner: service.Owner{Name: "Priya Raman", Address: "1420 W 31st St", City: "Minneapolis", State: "MN", Postcode: "55408", Phone: "612-555-0119"},
			animals: []demoAnimal{{
				animal: service.Animal{Name: "Juniper", Species: service.Cat, Breed: "Domestic Shorthair", Colour: "calico", Sex: service.Female, Altered: true, BirthDate: today.AddYears(-7)},
				chip:   "900164000123456", vaccinated: 450, vaccine: service.VaccineKilled, months: 12, licensed: 400, jurisdiction: "minneapolis",
			}}},
		{owner: service.Owner{Name: "Luis Ortega", Address: "3025 Lyndale Ave S", City: "Minneapolis", State: "MN", Postcode: "55408", Phone: "612-555-0164"},
			animals: []demoAnimal{{
				animal: service.Animal{Name: "Pepper", Species: service.Dog, Breed: "Border Collie", Colour: "black and white", Sex: service.Female, BirthDate: today.AddYears(-2)},
				chip:   "977200000123456", vaccinated: 300, vaccine: service.VaccineKilled, months: 12,
				after: func(ctx context.Context, a *app, id int64, today service.Date) error {
					_, err := a.custody.Impound(ctx, &service.Impoundment{AnimalID: id, Jurisdiction: "minneapolis", IntakeAt: now.Add(-50 * time.Hour),
						Site: "Minneapolis Animal Care & Control", WhereFound: "Loring Park, at large"})
					return err
				},
			}}},
		{owner: service.Owner{Name: "Tom Becker", Address: "640 Flying Cloud Dr", City: "Chanhassen", State: "MN", Postcode: "55317", Phone: "952-555-0171"},
			animals: []demoAnimal{{
				animal: service.Animal{Name: "Luna", Species: service.Dog, Breed: "Akita", Colour: "red", Sex: service.Female, Altered: true, BirthDate: today.AddYears(-6)},
				chip:   "985141000777001", vaccinated: 150, vaccine: service.VaccineModifiedLive, months: 12, licensed: 140, jurisdiction: "chanhassen", feeCents: &chanhassenFee,
				after: func(ctx context.Context, a *app, id int64, today service.Date) error {
					return a.store.CreateDesignation(ctx, &service.DangerousDesignation{AnimalID: id, Level: service.PotentiallyDangerous, Jurisdiction: "chanhassen",
						DeclaredOn: today.AddDays(-60), Authority: "Chanhassen Community Service Officer", Conditions: "Leashed in public; muzzle at the dog park entrance."})
				},
			}}},
	}
	var chips []string
	for _, h := range households {
		o := h.owner
		if err := a.store.CreateOwner(ctx, &o); err != nil {
			return nil, err
		}
		for _, d := range h.animals {
			an := d.animal
			an.OwnerID = o.ID
			if err := a.store.CreateAnimal(ctx, &an); err != nil {
				return nil, err
			}
			c, err := a.lookup.ChipRecord(d.chip)
			if err != nil {
				return nil, err
			}
			c.AnimalID, c.ImplantDate = an.ID, an.BirthDate.AddMonths(3)
			if err := a.store.AddChip(ctx, c); err != nil {
				return nil, err
			}
			if d.vaccinated > 0 {
				on := today.AddDays(-d.vaccinated)
				if err := a.store.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: an.ID, Date: on, Type: d.vaccine, DurationMonths: d.months,
					Product: "Imrab 3", Manufacturer: "Boehringer Ingelheim", Veterinarian: "Dr. Ellen Haugen", Certificate: fmt.Sprintf("R-%d-%04d", on.Year(), an.ID)}); err != nil {
					return nil, err
				}
			}
			if d.licensed > 0 {
				if _, err := a.lic.Issue(ctx, &licensing.LicenceRequest{AnimalID: an.ID, Jurisdiction: d.jurisdiction,
					IssuedOn: today.AddDays(-d.licensed), FeeCents: d.feeCents, Seller: &licensing.Seller{Site: "demo shelter"}}); err != nil {
					return nil, fmt.Errorf("licence for %s: %w", an.Name, err)
				}
			}
			if d.after != nil {
				if err := d.after(ctx, a, an.ID, today); err != nil {
					return nil, fmt.Errorf("%s: %w", an.Name, err)
				}
			}
			chips = append(chips, c.Code)
		}
	}
	// Two chips registered nowhere here: an Allflex and a French one.
	chips = append(chips[:2], append([]string{"982009104519999"}, chips[2:]...)...)
	chips = append(chips, "250269604001234")
	return chips, nil
}
