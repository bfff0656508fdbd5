package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/csvio"
)

// Opener opens a fresh, empty store whose clock is now. It registers its
// own cleanup with t.
type Opener func(t *testing.T, now func() time.Time) service.Store

// Clock is a settable clock for tests, safe for concurrent use.
type Clock struct{ ns atomic.Int64 }

// NewClock returns a clock reading t.
func NewClock(t time.Time) *Clock {
	c := &Clock{}
	c.Set(t)
	return c
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time { return time.Unix(0, c.ns.Load()).UTC() }

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) { c.ns.Store(t.UnixNano()) }

// Start is the clock's reading when each test begins: 2026-03-15 12:00 UTC.
var Start = time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)

// Run runs the whole contract against stores from open.
func Run(t *testing.T, open Opener) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s service.Store, c *Clock)
	}{
		{"Owners", testOwners},
		{"Search", testSearch}, // search.go
		{"Animals", testAnimals},
		{"Chips", testChips},
		{"LicenceNumbering", testLicenceNumbering},
		{"LicenceNumberingConcurrent", testLicenceNumberingConcurrent},
		{"LicenceOneActivePerTerm", testLicenceOneActivePerTerm},
		{"ImpoundReleaseFees", testImpoundReleaseFees},
		{"LicenceDuplicateTag_64_40", testLicenceDuplicate},
		{"LicenceFilter", testLicenceFilter},
		{"IdempotencyKeys", testIdempotencyKeys},
		{"IdempotencyKeysOtherRecords", testIdempotencyKeysOtherRecords},
		{"Health", testHealth},
		{"Designation", testDesignation},
		{"Impoundments", testImpoundments},
		{"RecordByChip", testRecordByChip},
		{"RecordByTag", testRecordByTag},
		{"Scans", testScans},
		{"Audit", testAudit},
		{"ChangeAudit", testChangeAudit},
		{"ChangeAuditKinds", testChangeAuditKinds},
		{"AuditBatch", testAuditBatch},
		{"AuditCompaction", testAuditCompaction}, // compact.go
		{"Tokens", testTokens},
		{"Users", testUsers},
		{"AuditTokenID", testAuditTokenID},
		{"NameWildcards", testNameWildcards},
		{"Jobs", testJobs},
		{"ImportExport", testImportExport},
		{"ImportCountsSales_64_30", testImportCountsSales},
		{"ImportAllOrNothing", testImportAllOrNothing},
		{"MissingIDs", testMissingIDs},
		{"Sites", testSites},
		{"TagBatchReserve_64_30", testTagBatchReserve},
		{"TagBatchReserveConcurrent", testTagBatchConcurrent},
		{"TagBatchStates", testTagBatchStates},
		{"DeviceEventOnce", testDeviceEventOnce},
		{"DeviceEventConcurrent", testDeviceEventConcurrent},
		{"DeviceEventRejected", testDeviceEventRejected},
		{"Charges", testCharges},
		{"Payments", testPayments},
		{"PaymentsConcurrent", testPaymentsConcurrent},
		{"CashUp", testCashUp},
		{"DepositOutcome_62_40c", testDepositOutcome},
		{"Exemptions_64_30", testExemptions},
		{"MoneyReports_64_30", testMoneyReports},
		{"ReminderOutbox", testReminderOutbox},
		{"Permits_64_55", testPermits},                        // permit.go
		{"AdoptionAgreements_64_140", testAdoptionAgreements}, // permit.go
		{"AnimalReports_66_60_66_70", testAnimalReports},      // permit.go
		{"RecordPermits", testRecordPermits},                  // permit.go
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := NewClock(Start)
			tt.fn(t, open(t, c.Now), c)
		})
	}
}

func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := service.ErrorCode(err); got != code {
		t.Fatalf("%s: error %v (code %q), want code %q", what, err, got, code)
	}
}

func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// fixture creates an owner and a dog and returns them.
func fixture(t *testing.T, s service.Store) (*service.Owner, *service.Animal) {
	t.Helper()
	ctx := context.Background()
	o := &service.Owner{Name: "Ada Lund", Address: "12 Lake St", City: "Minneapolis", State: "MN", Postcode: "55401", Phone: "612-555-0101"}
	must(t, "CreateOwner", s.CreateOwner(ctx, o))
	a := &service.Animal{OwnerID: o.ID, Name: "Rex", Species: service.Dog, Breed: "Labrador", Colour: "black",
		Sex: service.Male, Altered: true, BirthDate: service.MustDate("2021-05-01")}
	must(t, "CreateAnimal", s.CreateAnimal(ctx, a))
	return o, a
}

// another returns a new animal of a's owner: at most one licence of an
// animal is active per jurisdiction and term, so tests that sell many
// licences sell each to an animal of its own.
func another(t *testing.T, s service.Store, a *service.Animal) *service.Animal {
	t.Helper()
	b := &service.Animal{OwnerID: a.OwnerID, Name: a.Name, Species: a.Species, Altered: a.Altered, BirthDate: a.BirthDate}
	must(t, "CreateAnimal", s.CreateAnimal(context.Background(), b))
	return b
}

func testOwners(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	o := &service.Owner{Name: "Ada Lund", City: "Minneapolis"}
	must(t, "CreateOwner", s.CreateOwner(ctx, o))
	if o.ID == 0 || !o.CreatedAt.Equal(c.Now()) {
		t.Fatalf("CreateOwner: id %d created %v, want id set and %v", o.ID, o.CreatedAt, c.Now())
	}
	got, err := s.FindOwnerByID(ctx, o.ID)
	must(t, "FindOwnerByID", err)
	if got.Name != o.Name || got.City != o.City || !got.CreatedAt.Equal(o.CreatedAt) {
		t.Fatalf("FindOwnerByID = %+v, want %+v", got, o)
	}
	_, err = s.FindOwnerByID(ctx, o.ID+100)
	wantCode(t, "FindOwnerByID(missing)", err, service.ENOTFOUND)
	wantCode(t, "CreateOwner(no name)", s.CreateOwner(ctx, &service.Owner{}), service.EINVALID)

	c.Set(Start.Add(time.Hour))
	phone := "612-555-0199"
	up, err := s.UpdateOwner(ctx, o.ID, service.OwnerUpdate{Phone: &phone})
	must(t, "UpdateOwner", err)
	if up.Phone != phone || up.Name != o.Name || !up.UpdatedAt.Equal(c.Now()) {
		t.Fatalf("UpdateOwner = %+v", up)
	}
	empty := ""
	_, err = s.UpdateOwner(ctx, o.ID, service.OwnerUpdate{Name: &empty})
	wantCode(t, "UpdateOwner(empty name)", err, service.EINVALID)
	_, err = s.UpdateOwner(ctx, o.ID+100, service.OwnerUpdate{Phone: &phone})
	wantCode(t, "UpdateOwner(missing)", err, service.ENOTFOUND)

	must(t, "CreateOwner", s.CreateOwner(ctx, &service.Owner{Name: "Bo Berg"}))
	must(t, "CreateOwner", s.CreateOwner(ctx, &service.Owner{Name: "Cy Lundqvist"}))
	name := "LUND"
	list, n, err := s.FindOwners(ctx, service.OwnerFilter{Name: &name})
	must(t, "FindOwners", err)
	if n != 2 || len(list) != 2 || list[0].ID != o.ID {
		t.Fatalf("FindOwners(lund) = %d owners (total %d), want 2", len(list), n)
	}
	list, n, err = s.FindOwners(ctx, service.OwnerFilter{Limit: 1, Offset: 1})
	must(t, "FindOwners", err)
	if n != 3 || len(list) != 1 || list[0].Name != "Bo Berg" {
		t.Fatalf("FindOwners(limit 1 offset 1) = %v (total %d), want Bo Berg of 3", list, n)
	}
}

func testAnimals(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	o, a := fixture(t, s)
	got, err := s.FindAnimalByID(ctx, a.ID)
	must(t, "FindAnimalByID", err)
	if got.OwnerID != o.ID || got.Species != service.Dog || !got.Altered || got.BirthDate != a.BirthDate || got.Sex != service.Male {
		t.Fatalf("FindAnimalByID = %+v, want %+v", got, a)
	}
	wantCode(t, "CreateAnimal(bad species)", s.CreateAnimal(ctx, &service.Animal{Species: "horse"}), service.EINVALID)
	wantCode(t, "CreateAnimal(missing owner)", s.CreateAnimal(ctx, &service.Animal{Species: service.Cat, OwnerID: o.ID + 99}), service.EINVALID)

	stray := &service.Animal{Species: service.Cat, Colour: "tabby"}
	must(t, "CreateAnimal(stray)", s.CreateAnimal(ctx, stray))
	if stray.OwnerID != 0 {
		t.Fatalf("stray owner = %d, want 0", stray.OwnerID)
	}
	altered := false
	died := service.MustDate("2026-03-01")
	up, err := s.UpdateAnimal(ctx, a.ID, service.AnimalUpdate{Altered: &altered, DiedOn: &died})
	must(t, "UpdateAnimal", err)
	if up.Altered || up.DiedOn != died || up.Name != "Rex" {
		t.Fatalf("UpdateAnimal = %+v", up)
	}
	oid := o.ID
	list, n, err := s.FindAnimals(ctx, service.AnimalFilter{OwnerID: &oid})
	must(t, "FindAnimals", err)
	if n != 1 || list[0].ID != a.ID {
		t.Fatalf("FindAnimals(owner) = %v (total %d), want [%d]", list, n, a.ID)
	}
	name, cat := "rE", service.Cat // a substring, any ASCII case
	list, n, err = s.FindAnimals(ctx, service.AnimalFilter{Name: &name})
	must(t, "FindAnimals", err)
	if n != 1 || list[0].ID != a.ID {
		t.Fatalf("FindAnimals(name %q) = %v (total %d), want [%d]", name, list, n, a.ID)
	}
	list, n, err = s.FindAnimals(ctx, service.AnimalFilter{Species: &cat})
	must(t, "FindAnimals", err)
	if n != 1 || list[0].ID != stray.ID {
		t.Fatalf("FindAnimals(species cat) = %v (total %d), want [%d]", list, n, stray.ID)
	}
}

func testChips(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	c1 := &service.Chip{AnimalID: a.ID, Code: "985141000123456", Kind: chipid.KindISO, Manufacturer: "HomeAgain", ImplantDate: service.MustDate("2021-07-01")}
	must(t, "AddChip", s.AddChip(ctx, c1))
	c2 := &service.Chip{AnimalID: a.ID, Code: "012345678", Kind: chipid.KindAVID}
	must(t, "AddChip(second)", s.AddChip(ctx, c2))
	_, b := fixture(t, s)
	wantCode(t, "AddChip(same code, other animal)", s.AddChip(ctx, &service.Chip{AnimalID: b.ID, Code: c1.Code, Kind: chipid.KindISO}), service.ECONFLICT)
	wantCode(t, "AddChip(no animal)", s.AddChip(ctx, &service.Chip{AnimalID: 9999, Code: "985141000999999", Kind: chipid.KindISO}), service.EINVALID)
	chips, err := s.FindChipsByAnimal(ctx, a.ID)
	must(t, "FindChipsByAnimal", err)
	if len(chips) != 2 || chips[0].Code != c1.Code || chips[0].ImplantDate != c1.ImplantDate || chips[1].Kind != chipid.KindAVID {
		t.Fatalf("FindChipsByAnimal = %+v", chips)
	}
	must(t, "RemoveChip", s.RemoveChip(ctx, c2.ID))
	wantCode(t, "RemoveChip(again)", s.RemoveChip(ctx, c2.ID), service.ENOTFOUND)
}

func newLicence(animalID int64, jur string, issued string) *service.Licence {
	d := service.MustDate(issued)
	return &service.Licence{AnimalID: animalID, Jurisdiction: jur, IssuedOn: d,
		ExpiresOn: service.NewDate(d.Year()+1, time.January, 31), FeeCents: 1500, FeeCode: "altered"}
}

func testLicenceNumbering(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	for i := 1; i <= 3; i++ {
		l := newLicence(another(t, s, a).ID, "minneapolis", "2026-03-15")
		must(t, "CreateLicence", s.CreateLicence(ctx, l))
		if l.TagNumber != i || l.Year != 2026 || l.Status != service.LicenceActive || l.IssuedBy != service.IssuerOffice {
			t.Fatalf("CreateLicence #%d: tag %d year %d status %s by %s, want tag %d 2026 active office", i, l.TagNumber, l.Year, l.Status, l.IssuedBy, i)
		}
	}
	// A new year and another jurisdiction number from 1 again.
	l := newLicence(a.ID, "minneapolis", "2027-02-01")
	must(t, "CreateLicence(2027)", s.CreateLicence(ctx, l))
	if l.TagNumber != 1 || l.Year != 2027 {
		t.Fatalf("CreateLicence(2027) tag %d year %d, want 1 2027", l.TagNumber, l.Year)
	}
	l = newLicence(a.ID, "chanhassen", "2026-03-15")
	must(t, "CreateLicence(chanhassen)", s.CreateLicence(ctx, l))
	if l.TagNumber != 1 {
		t.Fatalf("CreateLicence(chanhassen) tag %d, want 1", l.TagNumber)
	}
	// A given number: taken is a conflict, free is kept and raises
	// the counter.
	l = newLicence(another(t, s, a).ID, "minneapolis", "2026-03-15")
	l.TagNumber = 2
	wantCode(t, "CreateLicence(tag 2 again)", s.CreateLicence(ctx, l), service.ECONFLICT)
	l = newLicence(another(t, s, a).ID, "minneapolis", "2026-03-15")
	l.TagNumber = 10
	must(t, "CreateLicence(tag 10)", s.CreateLicence(ctx, l))
	l = newLicence(another(t, s, a).ID, "minneapolis", "2026-03-15")
	must(t, "CreateLicence(after 10)", s.CreateLicence(ctx, l))
	if l.TagNumber != 11 {
		t.Fatalf("CreateLicence after tag 10 = %d, want 11", l.TagNumber)
	}
	got, err := s.FindLicenceByTag(ctx, "minneapolis", 2026, 11)
	must(t, "FindLicenceByTag", err)
	if got.ID != l.ID || got.FeeCents != 1500 || got.ExpiresOn != service.MustDate("2027-01-31") {
		t.Fatalf("FindLicenceByTag = %+v, want %+v", got, l)
	}
	_, err = s.FindLicenceByTag(ctx, "minneapolis", 2026, 12)
	wantCode(t, "FindLicenceByTag(missing)", err, service.ENOTFOUND)

	bad := newLicence(a.ID, "minneapolis", "2026-03-15")
	bad.ExpiresOn = service.MustDate("2026-01-01")
	wantCode(t, "CreateLicence(expires before issue)", s.CreateLicence(ctx, bad), service.EINVALID)
	wantCode(t, "CreateLicence(no animal)", s.CreateLicence(ctx, newLicence(a.ID+99, "minneapolis", "2026-03-15")), service.EINVALID)
}

func testLicenceNumberingConcurrent(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	const n = 40
	var wg sync.WaitGroup
	tags := make([]int, n)
	errs := make([]error, n)
	animals := make([]*service.Animal, n)
	for i := range n {
		animals[i] = another(t, s, a)
	}
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := newLicence(animals[i].ID, "minneapolis", "2026-06-01")
			errs[i] = s.CreateLicence(ctx, l)
			tags[i] = l.TagNumber
		}()
	}
	wg.Wait()
	seen := map[int]bool{}
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("CreateLicence #%d: %v", i, errs[i])
		}
		if seen[tags[i]] || tags[i] < 1 || tags[i] > n {
			t.Fatalf("tag %d handed out twice or out of 1..%d", tags[i], n)
		}
		seen[tags[i]] = true
	}
}

// testLicenceOneActivePerTerm: at most one active licence per animal,
// jurisdiction and term, whatever the callers checked: twenty parallel
// sales for one term give one licence and nineteen ECONFLICT. A revoked
// or replaced licence does not hold its term, another term or
// jurisdiction is another licence, and a licence sold with its
// vaccination keeps neither when refused.
func testLicenceOneActivePerTerm(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	const n = 20
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.CreateLicence(ctx, newLicence(a.ID, "minneapolis", "2026-06-01"))
		}()
	}
	wg.Wait()
	ok, conflicts := 0, 0
	for _, err := range errs {
		switch service.ErrorCode(err) {
		case "":
			ok++
		case service.ECONFLICT:
			conflicts++
		default:
			t.Fatalf("parallel CreateLicence: %v", err)
		}
	}
	active := service.LicenceActive
	ls, total, err := s.FindLicences(ctx, service.LicenceFilter{AnimalID: &a.ID, Status: &active})
	must(t, "FindLicences", err)
	if ok != 1 || conflicts != n-1 || total != 1 {
		t.Fatalf("%d parallel sales: %d licences, %d conflicts, %d active stored; want 1, %d, 1", n, ok, conflicts, total, n-1)
	}
	// The next term, another jurisdiction: allowed.
	must(t, "CreateLicence(next term)", s.CreateLicence(ctx, newLicence(a.ID, "minneapolis", "2027-02-01")))
	must(t, "CreateLicence(chanhassen)", s.CreateLicence(ctx, newLicence(a.ID, "chanhassen", "2026-06-01")))
	// Revoked: the term is free again.
	must(t, "RevokeLicence", s.RevokeLicence(ctx, ls[0].ID))
	must(t, "CreateLicence(after revocation)", s.CreateLicence(ctx, newLicence(a.ID, "minneapolis", "2026-06-02")))
	// Refused with its vaccination: nothing of either is stored.
	v := &service.RabiesVaccination{AnimalID: a.ID, Date: service.MustDate("2026-05-30"), Certificate: "refused"}
	l := newLicence(a.ID, "minneapolis", "2026-06-03")
	l.Vaccination = v
	wantCode(t, "CreateLicence(term taken, with vaccination)", s.CreateLicence(ctx, l), service.ECONFLICT)
	vs, err := s.FindVaccinations(ctx, a.ID)
	must(t, "FindVaccinations", err)
	if len(vs) != 0 {
		t.Fatalf("a refused sale left %d vaccinations", len(vs))
	}
	// Sold with its vaccination: both, in one transaction.
	b := another(t, s, a)
	l = newLicence(b.ID, "minneapolis", "2026-06-03")
	l.Vaccination = &service.RabiesVaccination{Date: service.MustDate("2026-05-30"), Certificate: "kept"}
	must(t, "CreateLicence(with vaccination)", s.CreateLicence(ctx, l))
	vs, err = s.FindVaccinations(ctx, b.ID)
	must(t, "FindVaccinations", err)
	if len(vs) != 1 || vs[0].Certificate != "kept" || vs[0].ID != l.Vaccination.ID {
		t.Fatalf("vaccinations after a sale with one: %+v, want the certificate kept", vs)
	}
}

// testImpoundReleaseFees: the fee lines of a redemption are stored with
// the release, in its update, and read back as they were; an
// impoundment released without them has none.
func testImpoundReleaseFees(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	i := &service.Impoundment{AnimalID: a.ID, Jurisdiction: "minneapolis", IntakeOn: service.MustDate("2026-03-15")}
	must(t, "CreateImpoundment", s.CreateImpoundment(ctx, i))
	fees, err := s.FindReleaseFees(ctx, i.ID)
	must(t, "FindReleaseFees(held)", err)
	if fees != nil {
		t.Fatalf("release fees of a held animal = %+v, want none", fees)
	}
	red, on, total := service.Redeemed, service.MustDate("2026-03-17"), int64(9500)
	lines := []service.ReleaseFee{
		{Code: "impound", Description: "Impound fee (1st in 12 months)", Cents: &total, State: "set", Section: "62.40(a)"},
		{Code: "sterilisation-deposit", Description: "Sterilisation deposit", State: "not-set", Section: "62.40(c)", Note: "set by the director"},
	}
	_, err = s.UpdateImpoundment(ctx, i.ID, service.ImpoundUpdate{Disposition: &red, DispositionOn: &on, FeesCents: &total, Fees: lines})
	must(t, "UpdateImpoundment(redeemed)", err)
	fees, err = s.FindReleaseFees(ctx, i.ID)
	must(t, "FindReleaseFees", err)
	if len(fees) != 2 || fees[0].Cents == nil || *fees[0].Cents != 9500 || fees[1].Cents != nil || fees[1].Note != "set by the director" {
		t.Fatalf("release fees = %+v, want the two lines as stored", fees)
	}
}

func testLicenceDuplicate(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	orig := newLicence(a.ID, "minneapolis", "2026-03-01")
	must(t, "CreateLicence", s.CreateLicence(ctx, orig))
	dup := newLicence(a.ID, "minneapolis", "2026-03-15")
	dup.Replaces, dup.ReplaceReason, dup.FeeCents, dup.FeeCode = orig.ID, service.TagLost, 500, "duplicate"
	dup.ExpiresOn = orig.ExpiresOn
	// 64.40: only lost or stolen tags are replaced.
	bad := *dup
	bad.ReplaceReason = "worn"
	wantCode(t, "CreateLicence(duplicate, worn)", s.CreateLicence(ctx, &bad), service.EINVALID)
	must(t, "CreateLicence(duplicate)", s.CreateLicence(ctx, dup))
	got, err := s.FindLicenceByID(ctx, orig.ID)
	must(t, "FindLicenceByID", err)
	if got.Status != service.LicenceReplaced {
		t.Fatalf("original status = %s, want replaced", got.Status)
	}
	if dup.TagNumber == orig.TagNumber {
		t.Fatalf("duplicate kept tag %d; a lost tag's number must not come back", dup.TagNumber)
	}
	again := newLicence(a.ID, "minneapolis", "2026-03-16")
	again.Replaces, again.ReplaceReason = orig.ID, service.TagStolen
	wantCode(t, "CreateLicence(replace a replaced licence)", s.CreateLicence(ctx, again), service.ECONFLICT)
	must(t, "RevokeLicence", s.RevokeLicence(ctx, dup.ID))
	got, err = s.FindLicenceByID(ctx, dup.ID)
	must(t, "FindLicenceByID", err)
	if got.Status != service.LicenceRevoked || got.Replaces != orig.ID || got.ReplaceReason != service.TagLost {
		t.Fatalf("revoked duplicate = %+v", got)
	}
	wantCode(t, "RevokeLicence(missing)", s.RevokeLicence(ctx, 9999), service.ENOTFOUND)
}

func testLicenceFilter(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	for _, d := range []string{"2024-04-01", "2025-04-01", "2026-03-01"} {
		must(t, "CreateLicence", s.CreateLicence(ctx, newLicence(a.ID, "minneapolis", d)))
	}
	before := service.MustDate("2026-02-01")
	list, n, err := s.FindLicences(ctx, service.LicenceFilter{ExpiresBefore: &before})
	must(t, "FindLicences", err)
	if n != 2 || len(list) != 2 {
		t.Fatalf("FindLicences(expires before %s) = %d, want 2", before, n)
	}
	year := 2026
	list, n, err = s.FindLicences(ctx, service.LicenceFilter{Year: &year})
	must(t, "FindLicences", err)
	if n != 1 || list[0].IssuedOn != service.MustDate("2026-03-01") {
		t.Fatalf("FindLicences(2026) = %v", list)
	}
}

func testHealth(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	v1 := &service.RabiesVaccination{AnimalID: a.ID, Date: service.MustDate("2024-05-01"), Type: service.VaccineKilled, DurationMonths: 12}
	v2 := &service.RabiesVaccination{AnimalID: a.ID, Date: service.MustDate("2025-05-01"), Type: service.VaccineModifiedLive,
		DurationMonths: 36, ExtendedCertified: true, Product: "Imrab 3", Manufacturer: "Boehringer Ingelheim", Lot: "A123",
		LotExpires: service.MustDate("2026-01-01"), Veterinarian: "Dr. Vik", VetLicence: "MN-4411", Certificate: "C-778", RabiesTag: "R-55"}
	must(t, "CreateVaccination", s.CreateVaccination(ctx, v2))
	must(t, "CreateVaccination", s.CreateVaccination(ctx, v1))
	wantCode(t, "CreateVaccination(no date)", s.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: a.ID}), service.EINVALID)
	vs, err := s.FindVaccinations(ctx, a.ID)
	must(t, "FindVaccinations", err)
	if len(vs) != 2 || vs[0].ID != v2.ID {
		t.Fatalf("FindVaccinations not newest first: %+v", vs)
	}
	if got := *vs[0]; got.Lot != "A123" || got.VetLicence != "MN-4411" || !got.ExtendedCertified || got.LotExpires != v2.LotExpires || got.DurationMonths != 36 {
		t.Fatalf("vaccination round trip = %+v, want %+v", got, *v2)
	}
	b := &service.BiteIncident{AnimalID: a.ID, Date: service.MustDate("2026-03-10"), Victim: service.VictimPerson, SkinBroken: true, Location: "park"}
	must(t, "CreateBite", s.CreateBite(ctx, b))
	wantCode(t, "CreateBite(bad victim)", s.CreateBite(ctx, &service.BiteIncident{AnimalID: a.ID, Date: b.Date, Victim: "car"}), service.EINVALID)
	q := &service.Quarantine{AnimalID: a.ID, BiteID: b.ID, Kind: service.QuarantineBite, Place: service.AtHome,
		Start: b.Date, End: b.Date.AddDays(10)}
	must(t, "CreateQuarantine", s.CreateQuarantine(ctx, q))
	wantCode(t, "CreateQuarantine(end before start)", s.CreateQuarantine(ctx, &service.Quarantine{AnimalID: a.ID,
		Kind: service.QuarantineBite, Place: service.AtHome, Start: b.Date, End: b.Date.AddDays(-1)}), service.EINVALID)
	must(t, "ReleaseQuarantine", s.ReleaseQuarantine(ctx, q.ID, b.Date.AddDays(10)))
	qs, err := s.FindQuarantines(ctx, a.ID)
	must(t, "FindQuarantines", err)
	if len(qs) != 1 || qs[0].ReleasedOn != b.Date.AddDays(10) || qs[0].BiteID != b.ID {
		t.Fatalf("FindQuarantines = %+v", qs)
	}
	open, err := s.FindOpenQuarantines(ctx)
	must(t, "FindOpenQuarantines", err)
	for _, o := range open {
		if o.ID == q.ID || !o.ReleasedOn.IsZero() {
			t.Fatalf("FindOpenQuarantines lists a released quarantine: %+v", o)
		}
	}
	q2 := &service.Quarantine{AnimalID: a.ID, BiteID: b.ID, Kind: service.QuarantineBite, Place: service.AtShelter,
		Start: b.Date, End: b.Date.AddDays(12)}
	must(t, "CreateQuarantine", s.CreateQuarantine(ctx, q2))
	open, err = s.FindOpenQuarantines(ctx)
	must(t, "FindOpenQuarantines", err)
	if !slices.ContainsFunc(open, func(o *service.Quarantine) bool { return o.ID == q2.ID && o.Place == service.AtShelter }) {
		t.Fatalf("FindOpenQuarantines = %+v, lacks %+v", open, q2)
	}
	for i := 1; i < len(open); i++ {
		if open[i].End < open[i-1].End {
			t.Fatalf("FindOpenQuarantines not by end: %+v", open)
		}
	}
	bites, err := s.FindBites(ctx, a.ID)
	must(t, "FindBites", err)
	if len(bites) != 1 || !bites[0].SkinBroken {
		t.Fatalf("FindBites = %+v", bites)
	}
}

func testDesignation(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	d := &service.DangerousDesignation{AnimalID: a.ID, Level: service.Dangerous, Jurisdiction: "minneapolis",
		DeclaredOn: service.MustDate("2026-03-01"), Authority: "Animal Care and Control", Conditions: "muzzle off premises"}
	must(t, "CreateDesignation", s.CreateDesignation(ctx, d))
	wantCode(t, "CreateDesignation(bad level)", s.CreateDesignation(ctx, &service.DangerousDesignation{AnimalID: a.ID,
		Level: "vicious", Jurisdiction: "minneapolis", DeclaredOn: d.DeclaredOn}), service.EINVALID)
	chipped := service.MustDate("2026-03-10")
	reg := "MPLS-DD-7"
	ins := int64(30000000)
	up, err := s.UpdateDesignation(ctx, d.ID, service.DesignationUpdate{MicrochipOn: &chipped, RegistrationNumber: &reg, InsuranceCents: &ins})
	must(t, "UpdateDesignation", err)
	if up.MicrochipOn != chipped || up.RegistrationNumber != reg || up.InsuranceCents != ins || up.Conditions != d.Conditions {
		t.Fatalf("UpdateDesignation = %+v", up)
	}
	list, err := s.FindDesignations(ctx, a.ID)
	must(t, "FindDesignations", err)
	if len(list) != 1 || list[0].MicrochipOn != chipped {
		t.Fatalf("FindDesignations = %+v", list)
	}
	in, err := s.FindDesignationsIn(ctx, "minneapolis")
	must(t, "FindDesignationsIn", err)
	if !slices.ContainsFunc(in, func(x *service.DangerousDesignation) bool { return x.ID == d.ID }) {
		t.Fatalf("FindDesignationsIn(minneapolis) = %+v, lacks %d", in, d.ID)
	}
	if other, err := s.FindDesignationsIn(ctx, "chanhassen"); err != nil || slices.ContainsFunc(other, func(x *service.DangerousDesignation) bool { return x.ID == d.ID }) {
		t.Fatalf("FindDesignationsIn(chanhassen) = %+v, %v: lists a Minneapolis designation", other, err)
	}
	gone := service.MustDate("2026-03-20")
	if _, err := s.UpdateDesignation(ctx, d.ID, service.DesignationUpdate{RescindedOn: &gone}); err != nil {
		t.Fatal(err)
	}
	if in, err := s.FindDesignationsIn(ctx, "minneapolis"); err != nil || slices.ContainsFunc(in, func(x *service.DangerousDesignation) bool { return x.ID == d.ID }) {
		t.Fatalf("FindDesignationsIn lists a rescinded designation: %+v, %v", in, err)
	}
}

func testImpoundments(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	i := &service.Impoundment{AnimalID: a.ID, Jurisdiction: "minneapolis", IntakeOn: service.MustDate("2026-03-15"),
		WhereFound: "Lake St & 5th Ave", HoldUntil: service.MustDate("2026-03-20")}
	must(t, "CreateImpoundment", s.CreateImpoundment(ctx, i))
	if !i.IntakeAt.Equal(c.Now()) {
		t.Fatalf("IntakeAt = %v, want the clock %v", i.IntakeAt, c.Now())
	}
	open := true
	list, n, err := s.FindImpoundments(ctx, service.ImpoundFilter{Open: &open})
	must(t, "FindImpoundments(open)", err)
	if n != 1 || list[0].WhereFound != i.WhereFound {
		t.Fatalf("FindImpoundments(open) = %+v", list)
	}
	disp, on, fees := service.Redeemed, service.MustDate("2026-03-17"), int64(8000)
	up, err := s.UpdateImpoundment(ctx, i.ID, service.ImpoundUpdate{Disposition: &disp, DispositionOn: &on, FeesCents: &fees})
	must(t, "UpdateImpoundment", err)
	if up.Disposition != service.Redeemed || up.FeesCents != fees || up.HoldUntil != i.HoldUntil {
		t.Fatalf("UpdateImpoundment = %+v", up)
	}
	bad := service.Disposition("lost")
	_, err = s.UpdateImpoundment(ctx, i.ID, service.ImpoundUpdate{Disposition: &bad})
	wantCode(t, "UpdateImpoundment(bad disposition)", err, service.EINVALID)
	_, n, err = s.FindImpoundments(ctx, service.ImpoundFilter{Open: &open})
	must(t, "FindImpoundments(open)", err)
	if n != 0 {
		t.Fatalf("FindImpoundments(open) after redemption = %d, want 0", n)
	}
	got, err := s.FindImpoundmentByID(ctx, i.ID)
	must(t, "FindImpoundmentByID", err)
	if got.DispositionOn != on {
		t.Fatalf("FindImpoundmentByID = %+v", got)
	}
}

// richRecord builds an animal with every kind of linked record, some
// too old to belong to the record.
func richRecord(t *testing.T, s service.Store) (*service.Owner, *service.Animal) {
	t.Helper()
	ctx := context.Background()
	o, a := fixture(t, s)
	must(t, "AddChip", s.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: "985141000123456", Kind: chipid.KindISO}))
	must(t, "AddChip", s.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: "0A1B2C3D4E", Kind: chipid.KindFECAVA}))
	old := newLicence(a.ID, "minneapolis", "2024-02-10") // expired 2025-01-31, over a year ago
	must(t, "CreateLicence", s.CreateLicence(ctx, old))
	must(t, "CreateLicence", s.CreateLicence(ctx, newLicence(a.ID, "minneapolis", "2025-02-10")))
	must(t, "CreateLicence", s.CreateLicence(ctx, newLicence(a.ID, "minneapolis", "2026-02-10")))
	must(t, "CreateVaccination", s.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: a.ID, Date: service.MustDate("2024-01-05")}))
	must(t, "CreateVaccination", s.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: a.ID, Date: service.MustDate("2025-01-05"), Certificate: "latest"}))
	rescinded := &service.DangerousDesignation{AnimalID: a.ID, Level: service.PotentiallyDangerous, Jurisdiction: "minneapolis",
		DeclaredOn: service.MustDate("2023-01-01"), RescindedOn: service.MustDate("2024-01-01")}
	must(t, "CreateDesignation", s.CreateDesignation(ctx, rescinded))
	must(t, "CreateDesignation", s.CreateDesignation(ctx, &service.DangerousDesignation{AnimalID: a.ID, Level: service.Dangerous,
		Jurisdiction: "minneapolis", DeclaredOn: service.MustDate("2026-01-20")}))
	must(t, "CreateQuarantine", s.CreateQuarantine(ctx, &service.Quarantine{AnimalID: a.ID, Kind: service.QuarantineBite,
		Place: service.AtHome, Start: service.MustDate("2026-03-10"), End: service.MustDate("2026-03-20")}))
	released := &service.Quarantine{AnimalID: a.ID, Kind: service.QuarantineBite, Place: service.AtShelter,
		Start: service.MustDate("2025-06-01"), End: service.MustDate("2025-06-11"), ReleasedOn: service.MustDate("2025-06-11")}
	must(t, "CreateQuarantine", s.CreateQuarantine(ctx, released))
	for _, d := range []string{"2024-12-01", "2025-04-01", "2026-01-10"} { // the first is over 12 months before 2026-03-15
		must(t, "CreateImpoundment", s.CreateImpoundment(ctx, &service.Impoundment{AnimalID: a.ID, Jurisdiction: "minneapolis",
			IntakeOn: service.MustDate(d), Disposition: service.Redeemed, DispositionOn: service.MustDate(d).AddDays(2)}))
	}
	must(t, "CreateBite", s.CreateBite(ctx, &service.BiteIncident{AnimalID: a.ID, Date: service.MustDate("2026-03-09"), Victim: service.VictimPerson}))
	must(t, "CreateBite", s.CreateBite(ctx, &service.BiteIncident{AnimalID: a.ID, Date: service.MustDate("2024-03-09"), Victim: service.VictimAnimal}))
	return o, a
}

func checkRich(t *testing.T, r *service.Record, o *service.Owner, a *service.Animal) {
	t.Helper()
	if r.Animal.ID != a.ID || r.Animal.Name != "Rex" {
		t.Fatalf("Record.Animal = %+v, want %+v", r.Animal, a)
	}
	if r.Owner == nil || r.Owner.ID != o.ID || r.Owner.Phone != o.Phone || !r.Owner.CreatedAt.Equal(o.CreatedAt) {
		t.Fatalf("Record.Owner = %+v, want %+v", r.Owner, o)
	}
	if len(r.Chips) != 2 {
		t.Errorf("Record.Chips = %d, want 2", len(r.Chips))
	}
	if len(r.Licences) != 2 || r.Licences[0].IssuedOn != service.MustDate("2026-02-10") {
		t.Errorf("Record.Licences = %+v, want the 2026 and 2025 licences, newest first", r.Licences)
	}
	if r.Rabies == nil || r.Rabies.Certificate != "latest" {
		t.Errorf("Record.Rabies = %+v, want the latest", r.Rabies)
	}
	if r.Dangerous == nil || r.Dangerous.Level != service.Dangerous {
		t.Errorf("Record.Dangerous = %+v, want the open designation", r.Dangerous)
	}
	if len(r.Quarantines) != 1 || r.Quarantines[0].Place != service.AtHome {
		t.Errorf("Record.Quarantines = %+v, want the open one", r.Quarantines)
	}
	if len(r.Impounds) != 2 || r.Impounds[0].IntakeOn != service.MustDate("2026-01-10") {
		t.Errorf("Record.Impounds = %+v, want the two of the last 12 months, newest first", r.Impounds)
	}
	if len(r.Bites) != 1 {
		t.Errorf("Record.Bites = %+v, want the one of the last 12 months", r.Bites)
	}
}

func testRecordByChip(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	o, a := richRecord(t, s)
	r, err := s.FindRecordByChip(ctx, "0A1B2C3D4E")
	must(t, "FindRecordByChip", err)
	checkRich(t, r, o, a)
	if r.MatchedChip == nil || r.MatchedChip.Code != "0A1B2C3D4E" || r.MatchedLicence != nil {
		t.Errorf("MatchedChip = %+v, MatchedLicence = %+v", r.MatchedChip, r.MatchedLicence)
	}
	_, err = s.FindRecordByChip(ctx, "985141000000000")
	wantCode(t, "FindRecordByChip(unknown)", err, service.ENOTFOUND)

	// A stray with no owner and nothing else.
	stray := &service.Animal{Species: service.Cat}
	must(t, "CreateAnimal", s.CreateAnimal(ctx, stray))
	must(t, "AddChip", s.AddChip(ctx, &service.Chip{AnimalID: stray.ID, Code: "977200000000001", Kind: chipid.KindISO}))
	r, err = s.FindRecordByChip(ctx, "977200000000001")
	must(t, "FindRecordByChip(stray)", err)
	if r.Owner != nil || r.Rabies != nil || r.Dangerous != nil || len(r.Licences) != 0 || r.Chips == nil || r.Licences == nil || r.Impounds == nil {
		t.Errorf("stray record = %+v, want no owner, empty non-nil lists", r)
	}
}

func testRecordByTag(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	o, a := richRecord(t, s)
	r, err := s.FindRecordByTag(ctx, "minneapolis", 2024, 1)
	must(t, "FindRecordByTag", err)
	checkRich(t, r, o, a)
	if r.MatchedLicence == nil || r.MatchedLicence.IssuedOn != service.MustDate("2024-02-10") {
		t.Errorf("MatchedLicence = %+v, want the 2024 licence", r.MatchedLicence)
	}
	_, err = s.FindRecordByTag(ctx, "minneapolis", 2026, 99)
	wantCode(t, "FindRecordByTag(unknown)", err, service.ENOTFOUND)
	r, err = s.FindRecordByAnimal(ctx, a.ID)
	must(t, "FindRecordByAnimal", err)
	checkRich(t, r, o, a)
	_, err = s.FindRecordByAnimal(ctx, a.ID+99)
	wantCode(t, "FindRecordByAnimal(unknown)", err, service.ENOTFOUND)
}

func testScans(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	for i := range 3 {
		c.Set(Start.Add(time.Duration(i) * time.Minute))
		sc := &service.Scan{Reader: "wl134:/dev/ttyUSB0", ChipCode: fmt.Sprintf("98514100000000%d", i), ChipKind: chipid.KindISO, User: "desk", Site: "intake"}
		must(t, "CreateScan", s.CreateScan(ctx, sc))
		if !sc.At.Equal(c.Now()) {
			t.Fatalf("Scan.At = %v, want %v", sc.At, c.Now())
		}
	}
	wantCode(t, "CreateScan(no chip)", s.CreateScan(ctx, &service.Scan{}), service.EINVALID)
	since := Start.Add(time.Minute)
	list, n, err := s.FindScans(ctx, service.ScanFilter{Since: &since})
	must(t, "FindScans", err)
	if n != 2 || list[0].ChipCode != "985141000000002" || list[0].Reader != "wl134:/dev/ttyUSB0" {
		t.Fatalf("FindScans(since) = %+v (total %d)", list, n)
	}
}

func testAudit(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	e := &service.AuditEvent{Actor: "counter-1", Role: service.RoleIntake, Action: "licence.create", Entity: "licence", EntityID: 7}
	must(t, "CreateAuditEvent", s.CreateAuditEvent(ctx, e))
	c.Set(Start.Add(time.Second))
	must(t, "CreateAuditEvent", s.CreateAuditEvent(ctx, &service.AuditEvent{Actor: "counter-1", Action: "record.view", Entity: "animal", EntityID: 3}))
	wantCode(t, "CreateAuditEvent(no actor)", s.CreateAuditEvent(ctx, &service.AuditEvent{Action: "x"}), service.EINVALID)
	ent := "licence"
	list, n, err := s.FindAuditEvents(ctx, service.AuditFilter{Entity: &ent})
	must(t, "FindAuditEvents", err)
	if n != 1 || list[0].EntityID != 7 || list[0].Role != service.RoleIntake || !list[0].At.Equal(Start) {
		t.Fatalf("FindAuditEvents = %+v", list)
	}
	list, _, err = s.FindAuditEvents(ctx, service.AuditFilter{})
	must(t, "FindAuditEvents", err)
	if len(list) != 2 || list[0].Action != "record.view" {
		t.Fatalf("FindAuditEvents not newest first: %+v", list)
	}
}

func testTokens(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	tok := &service.Token{Name: "officer-7", Role: service.RoleOfficer}
	secret, err := s.CreateToken(ctx, tok)
	must(t, "CreateToken", err)
	if len(secret) < 20 || secret[:len(service.TokenPrefix)] != service.TokenPrefix {
		t.Fatalf("secret %q", secret)
	}
	if tok.Hash != service.HashToken(secret) {
		t.Fatalf("stored hash is not SHA-256 of the secret")
	}
	_, err = s.CreateToken(ctx, &service.Token{Name: "x", Role: "root"})
	wantCode(t, "CreateToken(bad role)", err, service.EINVALID)

	got, err := s.Authenticate(ctx, secret)
	must(t, "Authenticate", err)
	if got.ID != tok.ID || got.Role != service.RoleOfficer || !got.LastUsedAt.Equal(c.Now()) {
		t.Fatalf("Authenticate = %+v", got)
	}
	_, err = s.Authenticate(ctx, secret+"x")
	wantCode(t, "Authenticate(wrong)", err, service.EUNAUTHORIZED)

	exp := &service.Token{Name: "temp", Role: service.RolePublic, ExpiresAt: Start.Add(time.Hour)}
	expSecret, err := s.CreateToken(ctx, exp)
	must(t, "CreateToken(expiring)", err)
	c.Set(Start.Add(2 * time.Hour))
	_, err = s.Authenticate(ctx, expSecret)
	wantCode(t, "Authenticate(expired)", err, service.EUNAUTHORIZED)

	must(t, "RevokeToken", s.RevokeToken(ctx, tok.ID))
	_, err = s.Authenticate(ctx, secret)
	wantCode(t, "Authenticate(revoked)", err, service.EUNAUTHORIZED)
	wantCode(t, "RevokeToken(missing)", s.RevokeToken(ctx, 9999), service.ENOTFOUND)
	list, err := s.FindTokens(ctx)
	must(t, "FindTokens", err)
	if len(list) != 2 || list[0].RevokedAt.IsZero() || list[1].ExpiresAt.IsZero() {
		t.Fatalf("FindTokens = %+v", list)
	}
}

func testJobs(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	l := newLicence(a.ID, "minneapolis", "2026-03-15")
	must(t, "CreateLicence", s.CreateLicence(ctx, l))
	j := &service.Job{Kind: service.JobEngrave, LicenceID: l.ID, Reason: "new"}
	created, err := s.CreateJob(ctx, j)
	must(t, "CreateJob", err)
	if !created || j.State != service.JobQueued || j.Key != service.JobKey(l.ID, "new") {
		t.Fatalf("CreateJob = %+v created %v", j, created)
	}
	again := &service.Job{Kind: service.JobEngrave, LicenceID: l.ID, Reason: "new"}
	created, err = s.CreateJob(ctx, again)
	must(t, "CreateJob(again)", err)
	if created || again.ID != j.ID {
		t.Fatalf("CreateJob(same licence and reason) made job %d (created %v), want the existing %d", again.ID, created, j.ID)
	}
	_, err = s.CreateJob(ctx, &service.Job{Kind: service.JobPrint, LicenceID: l.ID + 99, Reason: "new"})
	wantCode(t, "CreateJob(missing licence)", err, service.EINVALID)

	_, err = s.ClaimJob(ctx, service.JobPrint, "zebra")
	wantCode(t, "ClaimJob(none queued)", err, service.ENOTFOUND)
	got, err := s.ClaimJob(ctx, service.JobEngrave, "grbl:/dev/ttyACM0")
	must(t, "ClaimJob", err)
	if got.ID != j.ID || got.State != service.JobSent || got.Attempts != 1 || got.Device != "grbl:/dev/ttyACM0" {
		t.Fatalf("ClaimJob = %+v", got)
	}
	failed, msg := service.JobFailed, "grbl: ALARM:1 hard limit"
	got, err = s.UpdateJob(ctx, j.ID, service.JobUpdate{State: &failed, Error: &msg})
	must(t, "UpdateJob", err)
	if got.State != service.JobFailed || got.Error != msg {
		t.Fatalf("UpdateJob = %+v", got)
	}
	bad := service.JobState("lost")
	_, err = s.UpdateJob(ctx, j.ID, service.JobUpdate{State: &bad})
	wantCode(t, "UpdateJob(bad state)", err, service.EINVALID)
	st := service.JobFailed
	list, n, err := s.FindJobs(ctx, service.JobFilter{State: &st})
	must(t, "FindJobs", err)
	if n != 1 || list[0].Error != msg {
		t.Fatalf("FindJobs(failed) = %+v", list)
	}
}

func sampleBatch() *service.Batch {
	return &service.Batch{
		Owners: []*service.Owner{{ID: 10, Name: "Ada Lund"}, {ID: 11, Name: "Bo Berg"}},
		Animals: []*service.Animal{
			{ID: 20, OwnerID: 10, Name: "Rex", Species: service.Dog, Altered: true},
			{ID: 21, OwnerID: 11, Name: "Mia", Species: service.Cat},
		},
		Chips: []*service.Chip{{ID: 30, AnimalID: 20, Code: "985141000123456", Kind: chipid.KindISO}},
		Licences: []*service.Licence{
			{ID: 40, AnimalID: 20, Jurisdiction: "minneapolis", TagNumber: 7, IssuedOn: service.MustDate("2026-02-01"), ExpiresOn: service.MustDate("2027-01-31")},
			{AnimalID: 21, Jurisdiction: "minneapolis", IssuedOn: service.MustDate("2026-02-02"), ExpiresOn: service.MustDate("2027-01-31")},
		},
		Vaccinations: []*service.RabiesVaccination{{ID: 50, AnimalID: 20, Date: service.MustDate("2025-12-01"), Lot: "L1"}},
	}
}

func testImportExport(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	b := sampleBatch()
	must(t, "Import", s.Import(ctx, b))
	if b.Licences[1].TagNumber != 8 || b.Licences[1].ID == 0 {
		t.Fatalf("unnumbered imported licence got tag %d id %d, want tag 8 after imported 7", b.Licences[1].TagNumber, b.Licences[1].ID)
	}
	r, err := s.FindRecordByChip(ctx, "985141000123456")
	must(t, "FindRecordByChip", err)
	if r.Animal.ID != 20 || r.Owner.ID != 10 || len(r.Licences) != 1 || r.Rabies == nil || r.Rabies.Lot != "L1" {
		t.Fatalf("record after import = %+v", r)
	}
	fresh := &service.Animal{OwnerID: 10, Name: "Pip", Species: service.Dog}
	must(t, "CreateAnimal", s.CreateAnimal(ctx, fresh))
	l := newLicence(fresh.ID, "minneapolis", "2026-03-15")
	must(t, "CreateLicence", s.CreateLicence(ctx, l))
	if l.TagNumber != 9 {
		t.Fatalf("CreateLicence after import: tag %d, want 9", l.TagNumber)
	}
	var owners, animals, chips, licences, vacc int
	must(t, "EachOwner", s.EachOwner(ctx, func(*service.Owner) error { owners++; return nil }))
	must(t, "EachAnimal", s.EachAnimal(ctx, func(*service.Animal) error { animals++; return nil }))
	must(t, "EachChip", s.EachChip(ctx, func(*service.Chip) error { chips++; return nil }))
	must(t, "EachLicence", s.EachLicence(ctx, func(*service.Licence) error { licences++; return nil }))
	must(t, "EachVaccination", s.EachVaccination(ctx, func(*service.RabiesVaccination) error { vacc++; return nil }))
	if owners != 2 || animals != 3 || chips != 1 || licences != 3 || vacc != 1 { // the imported 2 and fresh
		t.Fatalf("export counts %d %d %d %d %d, want 2 3 1 3 1", owners, animals, chips, licences, vacc)
	}
	stop := fmt.Errorf("stop")
	if err := s.EachOwner(ctx, func(*service.Owner) error { return stop }); err != stop {
		t.Fatalf("EachOwner did not return fn's error: %v", err)
	}
}

// testMissingIDs: a store checks an import's references in bulk
// (csvio.IDChecker), answering in the order asked the ids a table
// lacks, and refuses a table that is not one of those references name.
func testMissingIDs(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	ck, ok := s.(csvio.IDChecker)
	if !ok {
		t.Fatalf("%T has no MissingIDs: an import would look its references up one by one", s)
	}
	var have []int64
	for _, name := range []string{"Ada", "Bo"} {
		o := &service.Owner{Name: name}
		must(t, "CreateOwner", s.CreateOwner(ctx, o))
		have = append(have, o.ID)
	}
	got, err := ck.MissingIDs(ctx, "owners", []int64{have[1] + 100, have[0], have[1] + 50, have[1]})
	if err != nil || len(got) != 2 || got[0] != have[1]+100 || got[1] != have[1]+50 {
		t.Errorf("MissingIDs = %v, %v; want [%d %d]", got, err, have[1]+100, have[1]+50)
	}
	if got, err := ck.MissingIDs(ctx, "animals", nil); err != nil || len(got) != 0 {
		t.Errorf("MissingIDs(no ids) = %v, %v", got, err)
	}
	_, err = ck.MissingIDs(ctx, "tokens", []int64{1})
	wantCode(t, "MissingIDs(tokens)", err, service.EINVALID)
}

func testImportAllOrNothing(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	for _, tt := range []struct {
		name  string
		spoil func(b *service.Batch)
		code  string
	}{
		{"duplicate chip", func(b *service.Batch) {
			b.Chips = append(b.Chips, &service.Chip{ID: 31, AnimalID: 21, Code: "985141000123456", Kind: chipid.KindISO})
		}, service.ECONFLICT},
		{"dangling owner", func(b *service.Batch) { b.Animals[1].OwnerID = 99 }, service.EINVALID},
		{"duplicate tag", func(b *service.Batch) { b.Licences[1].TagNumber = 7 }, service.ECONFLICT},
		{"bad species", func(b *service.Batch) { b.Animals[0].Species = "horse" }, service.EINVALID},
	} {
		b := sampleBatch()
		tt.spoil(b)
		wantCode(t, "Import("+tt.name+")", s.Import(ctx, b), tt.code)
		_, n, err := s.FindOwners(ctx, service.OwnerFilter{})
		must(t, "FindOwners", err)
		if n != 0 {
			t.Fatalf("Import(%s) failed but left %d owners", tt.name, n)
		}
	}
	must(t, "Import(clean)", s.Import(ctx, sampleBatch()))
	wantCode(t, "Import(same ids again)", s.Import(ctx, sampleBatch()), service.ECONFLICT)
}

// testSites checks that licences, impoundments and audit events keep the
// site they were made at, so several sites can share one database.
func testSites(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	north := newLicence(a.ID, "minneapolis", "2026-03-15")
	north.Site, north.IssuedBy, north.Clinic = "clinic-north", service.IssuerClinic, "North Vet"
	must(t, "CreateLicence(north)", s.CreateLicence(ctx, north))
	must(t, "CreateLicence(office)", s.CreateLicence(ctx, newLicence(another(t, s, a).ID, "minneapolis", "2026-03-15")))
	got, err := s.FindLicenceByID(ctx, north.ID)
	must(t, "FindLicenceByID", err)
	if got.Site != "clinic-north" {
		t.Fatalf("FindLicenceByID site = %q, want clinic-north", got.Site)
	}
	site := "clinic-north"
	list, n, err := s.FindLicences(ctx, service.LicenceFilter{Site: &site})
	must(t, "FindLicences(site)", err)
	if n != 1 || list[0].ID != north.ID {
		t.Fatalf("FindLicences(site clinic-north) = %+v (total %d), want only licence %d", list, n, north.ID)
	}
	r, err := s.FindRecordByTag(ctx, "minneapolis", 2026, north.TagNumber)
	must(t, "FindRecordByTag", err)
	if r.MatchedLicence == nil || r.MatchedLicence.Site != "clinic-north" {
		t.Fatalf("FindRecordByTag matched licence = %+v, want site clinic-north", r.MatchedLicence)
	}
	var exported []string
	must(t, "EachLicence", s.EachLicence(ctx, func(l *service.Licence) error { exported = append(exported, l.Site); return nil }))
	if len(exported) != 2 || exported[0] != "clinic-north" || exported[1] != "" {
		t.Fatalf("EachLicence sites = %q, want [clinic-north \"\"]", exported)
	}

	for _, site := range []string{"shelter-east", "shelter-west", "shelter-east"} {
		must(t, "CreateImpoundment", s.CreateImpoundment(ctx, &service.Impoundment{AnimalID: a.ID, Jurisdiction: "minneapolis",
			IntakeOn: service.MustDate("2026-03-15"), Site: site}))
	}
	east := "shelter-east"
	imps, n, err := s.FindImpoundments(ctx, service.ImpoundFilter{Site: &east})
	must(t, "FindImpoundments(site)", err)
	if n != 2 || imps[0].Site != east || imps[1].Site != east {
		t.Fatalf("FindImpoundments(site shelter-east) = %+v (total %d), want 2 there", imps, n)
	}

	for _, e := range []service.AuditEvent{
		{Actor: "officer-7", Site: "shelter-east", Action: "record.view", Entity: "animal", EntityID: a.ID},
		{Actor: "officer-7", Site: "shelter-west", Action: "record.view", Entity: "animal", EntityID: a.ID},
		{Actor: "counter-1", Site: "shelter-east", Action: "licence.create", Entity: "licence", EntityID: north.ID},
	} {
		must(t, "CreateAuditEvent", s.CreateAuditEvent(ctx, &e))
	}
	actor := "officer-7"
	evs, n, err := s.FindAuditEvents(ctx, service.AuditFilter{Site: &east, Actor: &actor})
	must(t, "FindAuditEvents(site, actor)", err)
	if n != 1 || evs[0].Site != east || evs[0].Actor != actor {
		t.Fatalf("FindAuditEvents(shelter-east, officer-7) = %+v (total %d), want 1", evs, n)
	}
	_, n, err = s.FindAuditEvents(ctx, service.AuditFilter{Site: &east})
	must(t, "FindAuditEvents(site)", err)
	if n != 2 {
		t.Fatalf("FindAuditEvents(shelter-east) total %d, want 2", n)
	}

	// Imported licences keep their site (chipdesk migrate relies on it).
	b := sampleBatch()
	b.Owners, b.Chips, b.Vaccinations = nil, nil, nil
	b.Animals = []*service.Animal{{ID: 900, Species: service.Cat}}
	b.Licences = b.Licences[:1]
	b.Licences[0].ID, b.Licences[0].AnimalID, b.Licences[0].Site = 901, 900, "clinic-south"
	must(t, "Import", s.Import(ctx, b))
	got, err = s.FindLicenceByID(ctx, 901)
	must(t, "FindLicenceByID(imported)", err)
	if got.Site != "clinic-south" {
		t.Fatalf("imported licence site = %q, want clinic-south", got.Site)
	}
}
