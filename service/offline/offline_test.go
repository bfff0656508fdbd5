package offline_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/offline"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// testPIN is the officer's PIN of the tests' handhelds.
const testPIN = "4827"

var day = time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)

func now() time.Time { return day }

type centralStore interface {
	offline.CentralStore
	service.Store
}

// backends are the central stores the tests run against.
var backends = []struct {
	name string
	open func(t *testing.T) centralStore
}{
	{"sqlite", func(t *testing.T) centralStore {
		db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "central.db"), &sqlite.Opts{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}},
	{"postgres", func(t *testing.T) centralStore { return pgtest.Open(t, now) }},
}

// transports reach a central store directly or over HTTP.
var transports = []struct {
	name string
	wrap func(t *testing.T, s centralStore) offline.Central
}{
	{"direct", func(t *testing.T, s centralStore) offline.Central { return &offline.StoreCentral{Store: s} }},
	{"http", func(t *testing.T, s centralStore) offline.Central {
		srv := httptest.NewServer(snakeAnswers(t, offline.Handler(&offline.StoreCentral{Store: s}, &offline.HandlerOpts{Tokens: s})))
		t.Cleanup(srv.Close)
		secret, err := s.CreateToken(context.Background(), &service.Token{Name: "officer-7", Role: service.RoleOfficer, Site: "north-patrol"})
		if err != nil {
			t.Fatal(err)
		}
		return &offline.HTTPClient{URL: srv.URL, Token: secret}
	}},
}

const (
	dogChip   = "985141000123456"
	catChip   = "0A1B2C3D4E"
	strayChip = "900000000000001" // known nowhere
)

type seeded struct {
	dog, cat *service.Animal
	tag      int
}

func seed(t *testing.T, s service.Store) seeded {
	t.Helper()
	ctx := context.Background()
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	o := &service.Owner{Name: "Ada Lund", Address: "12 Lake St", City: "Minneapolis", Phone: "612-555-0101", Email: "ada@example.org"}
	must("CreateOwner", s.CreateOwner(ctx, o))
	dog := &service.Animal{OwnerID: o.ID, Name: "Rex", Species: service.Dog, Colour: "black", Photo: "5e1f0c2a9b3d4e6f8a7b6c5d4e3f2a1b.jpg"}
	must("CreateAnimal", s.CreateAnimal(ctx, dog))
	must("AddChip", s.AddChip(ctx, &service.Chip{AnimalID: dog.ID, Code: dogChip, Kind: chipid.KindISO}))
	l := &service.Licence{AnimalID: dog.ID, Jurisdiction: "minneapolis", IssuedOn: service.MustDate("2026-02-01"),
		ExpiresOn: service.MustDate("2027-01-31"), FeeCents: 1500, FeeCode: "altered"}
	must("CreateLicence", s.CreateLicence(ctx, l))
	must("CreateVaccination", s.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: dog.ID, Date: service.MustDate("2025-05-01"),
		DurationMonths: 36, Veterinarian: "Dr. Vik", Lot: "A1"}))
	must("CreateDesignation", s.CreateDesignation(ctx, &service.DangerousDesignation{AnimalID: dog.ID, Level: service.Dangerous,
		Jurisdiction: "minneapolis", DeclaredOn: service.MustDate("2026-01-20"), Conditions: "muzzle off premises", InsuranceCents: 30000000}))
	cat := &service.Animal{Species: service.Cat, Colour: "tabby"}
	must("CreateAnimal", s.CreateAnimal(ctx, cat))
	must("AddChip", s.AddChip(ctx, &service.Chip{AnimalID: cat.ID, Code: catChip, Kind: chipid.KindFECAVA}))
	must("CreateAnimal", s.CreateAnimal(ctx, &service.Animal{Species: service.Ferret})) // no chip, no licence: not replicated
	return seeded{dog, cat, l.TagNumber}
}

func openReplica(t *testing.T) *offline.Replica {
	t.Helper()
	r, err := offline.Open(context.Background(), filepath.Join(t.TempDir(), "handheld.db"),
		&offline.Opts{Device: "handheld-3", PIN: testPIN, User: "officer-7", Site: "north-patrol", Now: func() time.Time { return day.Add(2 * time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func parse(t *testing.T, s string) chipid.ID {
	t.Helper()
	id, err := chipid.Parse(s, nil)
	if err != nil {
		t.Fatalf("chipid.Parse(%q): %v", s, err)
	}
	return id
}

func syncOK(t *testing.T, r *offline.Replica, c offline.Central) offline.Report {
	t.Helper()
	rep, err := offline.Sync(context.Background(), r, c, nil)
	if err != nil {
		t.Fatalf("Sync: %v", err)
	}
	return rep
}

// TestSyncRoundTrip: pull a replica, look up offline, record scans and a
// bite offline, sync; the central store has each event once and the
// replica shows no more owner data than a name and a phone.
func TestSyncRoundTrip(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		for _, tr := range transports {
			t.Run(be.name+"/"+tr.name, func(t *testing.T) {
				t.Parallel()
				ctx := context.Background()
				s := be.open(t)
				sd := seed(t, s)
				c := tr.wrap(t, s)
				r := openReplica(t)

				if rep := syncOK(t, r, c); rep.Records != 2 || rep.Pushed != 0 {
					t.Fatalf("first Sync = %+v, want 2 records (dog and cat; the ferret has no chip or tag), nothing pushed", rep)
				}
				rec, err := r.FindRecordByChip(ctx, dogChip)
				if err != nil {
					t.Fatalf("FindRecordByChip offline: %v", err)
				}
				if rec.Owner == nil || rec.Owner.Name != "Ada Lund" || rec.Owner.Phone != "612-555-0101" {
					t.Errorf("offline owner = %+v, want name and phone", rec.Owner)
				}
				if rec.Owner != nil && (rec.Owner.Address != "" || rec.Owner.Email != "" || rec.Owner.City != "") {
					t.Errorf("offline owner = %+v: the replica keeps no address or e-mail", rec.Owner)
				}
				if rec.Animal.Photo != "" || rec.Rabies == nil || rec.Rabies.Veterinarian != "" || rec.Rabies.DurationMonths != 36 {
					t.Errorf("offline animal %+v rabies %+v: want rabies date and duration, no vet, no photo", rec.Animal, rec.Rabies)
				}
				if rec.Dangerous == nil || rec.Dangerous.Level != service.Dangerous || rec.Dangerous.Conditions == "" || rec.Dangerous.InsuranceCents != 0 {
					t.Errorf("offline designation = %+v, want level and conditions, no insurance", rec.Dangerous)
				}
				if rec.MatchedChip == nil || rec.MatchedChip.Code != dogChip || len(rec.Licences) != 1 || rec.Licences[0].FeeCents != 0 {
					t.Errorf("offline record chip %+v licences %+v", rec.MatchedChip, rec.Licences)
				}
				byTag, err := r.FindRecordByTag(ctx, "minneapolis", 2026, sd.tag)
				if err != nil || byTag.Animal.ID != sd.dog.ID || byTag.MatchedLicence == nil || byTag.MatchedLicence.TagNumber != sd.tag {
					t.Fatalf("FindRecordByTag offline = %+v, %v", byTag, err)
				}
				if _, err := r.FindRecordByChip(ctx, strayChip); service.ErrorCode(err) != service.ENOTFOUND {
					t.Fatalf("FindRecordByChip(unknown) offline: %v, want ENOTFOUND", err)
				}

				// Offline: two scans and a bite.
				if _, err := r.RecordScan(ctx, parse(t, dogChip), "handheld-3"); err != nil {
					t.Fatal(err)
				}
				if _, err := r.RecordScan(ctx, parse(t, strayChip), "handheld-3"); err != nil {
					t.Fatal(err)
				}
				if _, err := r.RecordBite(ctx, &service.BiteIncident{AnimalID: rec.Animal.ID, Date: service.MustDate("2026-03-15"),
					Victim: service.VictimPerson, SkinBroken: true, Location: "Lake St"}); err != nil {
					t.Fatal(err)
				}
				rep := syncOK(t, r, c)
				if rep.Pushed != 3 || rep.Applied != 3 || rep.Queued != 0 || rep.Rejected != 0 {
					t.Fatalf("Sync = %+v, want 3 pushed and applied", rep)
				}
				scans, n, err := s.FindScans(ctx, service.ScanFilter{})
				if err != nil || n != 2 {
					t.Fatalf("central FindScans = %d, %v; want 2", n, err)
				}
				byChip := map[string]*service.Scan{}
				for _, sc := range scans {
					byChip[sc.ChipCode] = sc
				}
				if sc := byChip[dogChip]; sc == nil || sc.AnimalID != sd.dog.ID || sc.Site != "north-patrol" || sc.User != "officer-7" || !sc.At.Equal(day.Add(2*time.Hour)) {
					t.Errorf("central scan of the dog = %+v", sc)
				}
				if sc := byChip[strayChip]; sc == nil || sc.AnimalID != 0 {
					t.Errorf("central scan of the unknown chip = %+v, want animal 0", sc)
				}
				bites, err := s.FindBites(ctx, sd.dog.ID)
				if err != nil || len(bites) != 1 || !bites[0].SkinBroken {
					t.Fatalf("central bites = %+v, %v", bites, err)
				}
				if rep := syncOK(t, r, c); rep.Pushed != 0 || rep.Records != 2 {
					t.Fatalf("Sync with nothing queued = %+v", rep)
				}
				if _, n, _ := s.FindScans(ctx, service.ScanFilter{}); n != 2 {
					t.Fatalf("a second sync left %d scans, want 2", n)
				}
			})
		}
	}
}

// lossy applies a push on the central store and then loses the answer,
// the first fail times: what a dropped connection does.
type lossy struct {
	offline.Central
	fail int
}

func (l *lossy) Push(ctx context.Context, events []service.DeviceEvent) ([]offline.Outcome, error) {
	out, err := l.Central.Push(ctx, events)
	if err == nil && l.fail > 0 {
		l.fail--
		return nil, errors.New("connection reset by peer")
	}
	return out, err
}

// A push whose answer is lost is pushed again; the central store applies
// each event once.
func TestSyncLostAnswerNoDuplicates(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := be.open(t)
			seed(t, s)
			c := &lossy{Central: &offline.StoreCentral{Store: s}, fail: 2}
			r := openReplica(t)
			for range 5 {
				if _, err := r.RecordScan(ctx, parse(t, dogChip), "handheld-3"); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 2 {
				if _, err := offline.Sync(ctx, r, c, &offline.SyncOpts{Batch: 2, Retry: offline.Retry{Attempts: 1}}); err == nil {
					t.Fatalf("Sync #%d with the answer lost: no error", i+1)
				}
			}
			// Both times the first batch (2 events) was applied and its
			// answer lost: all 5 are still queued on the device.
			queued, err := r.Events(ctx, offline.Queued)
			if err != nil || len(queued) != 5 {
				t.Fatalf("after two lost answers: %d events queued (%v), want all 5", len(queued), err)
			}
			rep := syncOK(t, r, c)
			if rep.Duplicates != 2 || rep.Applied != 3 || rep.Queued != 0 {
				t.Fatalf("Sync after lost answers = %+v, want 2 duplicates (applied before, answer lost) and 3 applied", rep)
			}
			if _, n, _ := s.FindScans(ctx, service.ScanFilter{}); n != 5 {
				t.Fatalf("central has %d scans for 5 events pushed with retries, want 5", n)
			}
		})
	}
}

// An event the central store refuses stays on the device as rejected,
// with the reason, and does not hold back the others.
func TestSyncRejected(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := backends[0].open(t)
	seed(t, s)
	c := &offline.StoreCentral{Store: s}
	r := openReplica(t)
	if _, err := r.RecordBite(ctx, &service.BiteIncident{AnimalID: 9999, Date: service.MustDate("2026-03-15"), Victim: service.VictimAnimal}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.RecordScan(ctx, parse(t, catChip), "handheld-3"); err != nil {
		t.Fatal(err)
	}
	rep := syncOK(t, r, c)
	if rep.Rejected != 1 || rep.Applied != 1 || rep.Queued != 0 {
		t.Fatalf("Sync = %+v, want 1 rejected and 1 applied", rep)
	}
	rej, err := r.Events(ctx, offline.Rejected)
	if err != nil || len(rej) != 1 || rej[0].Event.Kind != service.DeviceBite || rej[0].Detail == "" {
		t.Fatalf("rejected events = %+v, %v", rej, err)
	}
	if rep := syncOK(t, r, c); rep.Pushed != 0 {
		t.Fatalf("a rejected event was pushed again: %+v", rep)
	}
}

// cutShort fails a pull after the first record.
type cutShort struct{ offline.Central }

func (c *cutShort) Pull(ctx context.Context, since string, fn func(offline.Item) error) (offline.Pulled, error) {
	n := 0
	return c.Central.Pull(ctx, "", func(it offline.Item) error {
		if n++; n > 1 {
			return errors.New("connection lost")
		}
		return fn(it)
	})
}

// A pull cut short, directly or in the middle of the HTTP stream, leaves
// the replica as it was.
func TestPullCutShortKeepsReplica(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := backends[0].open(t)
	seed(t, s)
	good := &offline.StoreCentral{Store: s}
	srv := httptest.NewServer(offline.Handler(&cutShort{good}, nil))
	defer srv.Close()
	for _, tt := range []struct {
		name string
		c    offline.Central
	}{
		{"direct", &cutShort{good}},
		{"http", &offline.HTTPClient{URL: srv.URL}},
	} {
		r := openReplica(t)
		syncOK(t, r, good)
		pulled, _ := r.PulledAt(ctx)
		if _, err := offline.Sync(ctx, r, tt.c, &offline.SyncOpts{Retry: offline.Retry{Attempts: 1}}); err == nil {
			t.Fatalf("%s: Sync with a pull cut short: no error", tt.name)
		}
		for _, chip := range []string{dogChip, catChip} {
			if _, err := r.FindRecordByChip(ctx, chip); err != nil {
				t.Errorf("%s: after a failed pull, FindRecordByChip(%s): %v", tt.name, chip, err)
			}
		}
		if again, _ := r.PulledAt(ctx); !again.Equal(pulled) || pulled.IsZero() {
			t.Errorf("%s: PulledAt moved from %v to %v on a failed pull", tt.name, pulled, again)
		}
	}
}

// The HTTP handler lets officers and admins sync, and nobody else.
func TestHandlerAuth(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := backends[0].open(t)
	seed(t, s)
	srv := httptest.NewServer(offline.Handler(&offline.StoreCentral{Store: s}, &offline.HandlerOpts{Tokens: s}))
	defer srv.Close()
	clinic, err := s.CreateToken(ctx, &service.Token{Name: "vet", Role: service.RoleClinic})
	if err != nil {
		t.Fatal(err)
	}
	admin, err := s.CreateToken(ctx, &service.Token{Name: "root", Role: service.RoleAdmin})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, token, want string
	}{
		{"no token", "", "401"},
		{"unknown token", "cdk_nope", "401"},
		{"clinic role", clinic, "403"},
		{"admin", admin, ""},
	} {
		r := openReplica(t)
		_, err := offline.Sync(ctx, r, &offline.HTTPClient{URL: srv.URL, Token: tt.token}, nil)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: Sync: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: Sync error %v, want status %s", tt.name, err, tt.want)
		}
	}
}

// many serves n records, running hook before record i.
type many struct {
	offline.Central
	n    int
	hook func(i int)
}

func (m *many) Pull(_ context.Context, _ string, fn func(offline.Item) error) (offline.Pulled, error) {
	for i := 1; i <= m.n; i++ {
		m.hook(i)
		r := &service.Record{Animal: service.Animal{ID: int64(i), Species: service.Cat},
			Chips: []service.Chip{{AnimalID: int64(i), Code: fmt.Sprintf("999%012d", i), Kind: chipid.KindISO}}}
		if err := fn(offline.Item{Record: r}); err != nil {
			return offline.Pulled{}, err
		}
	}
	return offline.Pulled{Full: true}, nil
}

// An officer can queue a scan while a long pull is being written: the
// pull writes in batches and the scan gets in between them.
func TestQueueDuringPull(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := backends[0].open(t)
	seed(t, s)
	r := openReplica(t)
	done := make(chan error, 1)
	c := &many{Central: &offline.StoreCentral{Store: s}, n: 1200, hook: func(i int) {
		switch i {
		case 100:
			go func() {
				_, err := r.RecordScan(ctx, parse(t, dogChip), "handheld-3")
				done <- err
			}()
		case 1100: // two batches later
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("RecordScan during a pull: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Errorf("RecordScan waited for the whole pull")
			}
		}
	}}
	rep, err := offline.Sync(ctx, r, c, nil)
	if err != nil {
		t.Fatalf("Sync: %v", err)
	}
	if rep.Records != 1200 || rep.Queued != 1 {
		t.Fatalf("Sync = %+v, want 1200 records and the scan queued during the pull", rep)
	}
	if rep := syncOK(t, r, &offline.StoreCentral{Store: s}); rep.Applied != 1 || rep.Records != 2 {
		t.Fatalf("next Sync = %+v, want the scan applied and the 2 real records", rep)
	}
}

// slow serves two records with a pause between them.
type slow struct{ offline.Central }

func (s slow) DeviceKey(context.Context) (*service.DeviceKey, error) { return service.NewDeviceKey(1) }

func (s slow) Pull(ctx context.Context, _ string, fn func(offline.Item) error) (offline.Pulled, error) {
	for i := 1; i <= 2; i++ {
		if i > 1 {
			time.Sleep(400 * time.Millisecond)
		}
		if err := fn(offline.Item{Record: &service.Record{Animal: service.Animal{ID: int64(i), Species: service.Dog},
			Chips: []service.Chip{{AnimalID: int64(i), Code: fmt.Sprintf("985%012d", i), Kind: chipid.KindISO}}}}); err != nil {
			return offline.Pulled{}, err
		}
	}
	return offline.Pulled{Full: true}, nil
}

// A replica longer to send than the server's write timeout still
// arrives whole.
func TestPullOutlastsWriteTimeout(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(offline.Handler(slow{}, nil))
	srv.Config.WriteTimeout = 200 * time.Millisecond
	srv.Start()
	defer srv.Close()
	r := openReplica(t)
	rep, err := offline.Sync(context.Background(), r, &offline.HTTPClient{URL: srv.URL}, nil)
	if err != nil || rep.Records != 2 {
		t.Fatalf("Sync = %+v, %v; want 2 records", rep, err)
	}
}
