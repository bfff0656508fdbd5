package web_test

import (
	"bytes"
	"context"
	"github.com/chipdesk/chipdesk/service/incidents"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/events"
	"github.com/chipdesk/chipdesk/service/hardware"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/permits"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
	"github.com/chipdesk/chipdesk/service/web"
	"github.com/chipdesk/chipdesk/tags"
	"github.com/chipdesk/chipdesk/tags/check"
)

// photos is the photo folder: 5e1f0c2a9b3d4e6f8a7b6c5d4e3f2a1b.png, a brindle square.
func photos(t *testing.T) fstest.MapFS {
	img := image.NewRGBA(image.Rect(0, 0, 120, 120))
	for y := range 120 {
		for x := range 120 {
			c := color.RGBA{0x8a, 0x5a, 0x2b, 0xff}
			if (x/8+y/8)%2 == 0 {
				c = color.RGBA{0x3b, 0x27, 0x14, 0xff}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{"5e1f0c2a9b3d4e6f8a7b6c5d4e3f2a1b.png": {Data: b.Bytes()}, "notes.svg": {Data: []byte("<svg/>")}}
}

// testLog writes log lines to the test's log.
type testLog struct{ t *testing.T }

func (l testLog) Write(b []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(b)))
	return len(b), nil
}

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// start is the test's "now": a weekday in June 2026, 10:00 in Minneapolis.
var start = time.Date(2026, 6, 15, 15, 0, 0, 0, time.UTC)

// Chips of the seeded animals (ISO 11784, FDX-B).
const (
	chipRex   = "982000001088420" // dangerous dog, owner Jane Doe
	chipTom   = "900123000000042" // cat, no licence, rabies current
	chipStray = "985120000999999" // nobody's
)

// fixture is a whole service on a temporary SQLite database.
type fixture struct {
	t      *testing.T
	clock  *clock
	store  *sqlite.DB
	rules  *rules.Set
	lookup *lookup.Service
	hub    *events.Hub
	pipe   *hardware.Pipeline
	issuer *jobs.Orders
	web    *web.Handler
	srv    *httptest.Server
	wake   chan struct{}
	// devices, when set, replaces the fixed device list.
	devices web.Devices

	// photoDir holds the photographs uploaded on the forms (PhotoRoot).
	photoDir string
	tokens   map[service.Role]string // secret per role
	rex      int64                   // animal ids
	tom      int64
	owner    *service.Owner
}

func newFixture(t *testing.T, tls bool) *fixture { return newFixtureWith(t, tls, nil) }

// newFixtureWith is newFixture with opt changing the pages' options.
func newFixtureWith(t *testing.T, tls bool, opt func(*web.Opts)) *fixture {
	t.Helper()
	ctx := context.Background()
	f := &fixture{t: t, clock: &clock{t: start}, tokens: map[service.Role]string{}, wake: make(chan struct{}, 16)}
	var err error
	if f.rules, err = rules.Embedded(); err != nil {
		t.Fatal(err)
	}
	loc := f.rules.Profile("minneapolis").Location()
	if f.store, err = sqlite.Open(ctx, filepath.Join(t.TempDir(), "chipdesk.db"), &sqlite.Opts{Now: f.clock.Now, Location: loc}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.store.Close() })
	if f.lookup, err = lookup.New(&lookup.Opts{Store: f.store, Rules: f.rules, Jurisdiction: "minneapolis", Now: f.clock.Now}); err != nil {
		t.Fatal(err)
	}
	f.hub = events.New(nil)
	t.Cleanup(f.hub.Close)
	if f.pipe, err = hardware.NewPipeline(&hardware.PipelineOpts{Lookup: f.lookup, Scans: f.store, Hub: f.hub, Now: f.clock.Now, Site: "shelter"}); err != nil {
		t.Fatal(err)
	}
	designs, err := tags.LoadDesigns("")
	if err != nil {
		t.Fatal(err)
	}
	f.issuer = &jobs.Orders{Store: f.store, Rules: f.rules, Designs: designs, Keys: check.DevelopmentKeys()}
	f.seed(ctx)
	mon, err := money.New(&money.Opts{Store: f.store, Rules: f.rules, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	inc, err := incidents.New(&incidents.Opts{Store: f.store, Rules: f.rules, Jurisdiction: f.lookup.Home(), Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	pm, err := permits.New(&permits.Opts{Store: f.store, Rules: f.rules, Bites: inc, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	f.photoDir = t.TempDir()
	photoRoot, err := os.OpenRoot(f.photoDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { photoRoot.Close() })
	wo := &web.Opts{Store: f.store, PhotoRoot: photoRoot, Lookup: f.lookup, Jobs: f.issuer, Hub: f.hub, Permits: pm, Money: mon,
		Jurisdiction: "minneapolis", Now: f.clock.Now, Devices: f, Photos: photos(t), Logger: slog.New(slog.NewTextHandler(testLog{t}, nil)),
		Wake: func() {
			select {
			case f.wake <- struct{}{}:
			default:
			}
		}}
	if opt != nil {
		opt(wo)
	}
	if f.web, err = web.New(wo); err != nil {
		t.Fatal(err)
	}
	if tls {
		f.srv = httptest.NewTLSServer(f.web)
	} else {
		f.srv = httptest.NewServer(f.web)
	}
	t.Cleanup(f.srv.Close)
	return f
}

// Devices implements web.Devices: f.devices, or one reader and one
// printer.
func (f *fixture) Devices(ctx context.Context) []web.Device {
	if f.devices != nil {
		return f.devices.Devices(ctx)
	}
	return []web.Device{
		{Kind: "reader", Name: "desk-1", Ready: true, State: "reading", At: f.clock.Now()},
		{Kind: "printer", Name: "zpl{127.0.0.1:9100}", Ready: false, State: "paper out", At: f.clock.Now()},
	}
}

func (f *fixture) chip(text string) chipid.ID {
	id, err := f.lookup.ParseChip(text)
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

func (f *fixture) seed(ctx context.Context) {
	t := f.t
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	f.owner = &service.Owner{Name: "Jane Doe", Address: "12 Oak Street", City: "Minneapolis", State: "MN", Postcode: "55401", Phone: "612-555-0101"}
	must(f.store.CreateOwner(ctx, f.owner))
	rex := &service.Animal{OwnerID: f.owner.ID, Name: "Rex", Species: service.Dog, Breed: "Mastiff mix", Colour: "brindle", Photo: "5e1f0c2a9b3d4e6f8a7b6c5d4e3f2a1b.png",
		Sex: service.Male, BirthDate: service.MustDate("2021-03-01"), Description: "White blaze on chest, torn left ear"}
	must(f.store.CreateAnimal(ctx, rex))
	f.rex = rex.ID
	id := f.chip(chipRex)
	must(f.store.AddChip(ctx, &service.Chip{AnimalID: rex.ID, Code: id.Code, Kind: id.Kind}))
	must(f.store.CreateDesignation(ctx, &service.DangerousDesignation{AnimalID: rex.ID, Level: service.Dangerous,
		Jurisdiction: "minneapolis", DeclaredOn: service.MustDate("2026-05-01"), RegistrationNumber: "DD-2026-7",
		MicrochipOn: service.MustDate("2026-05-03")}))
	must(f.store.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: rex.ID, Date: service.MustDate("2025-09-01"),
		Type: service.VaccineKilled, DurationMonths: 36, Certificate: "RC-1001", Veterinarian: "Dr. Lund"}))

	tom := &service.Animal{OwnerID: f.owner.ID, Name: "Tom", Species: service.Cat, Colour: "grey tabby", Sex: service.Male,
		Altered: true, BirthDate: service.MustDate("2022-01-10")}
	must(f.store.CreateAnimal(ctx, tom))
	f.tom = tom.ID
	id = f.chip(chipTom)
	must(f.store.AddChip(ctx, &service.Chip{AnimalID: tom.ID, Code: id.Code, Kind: id.Kind}))

	for _, r := range []service.Role{service.RoleAdmin, service.RoleClinic, service.RoleIntake, service.RoleOfficer, service.RolePublic} {
		secret, err := f.store.CreateToken(ctx, &service.Token{Name: "test " + string(r), Role: r, Site: "shelter"})
		must(err)
		f.tokens[r] = secret
	}
}
