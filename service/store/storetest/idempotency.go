package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// idemReq is a licence issue carrying key for actor.
func idemReq(actor, key, hash string) *service.IdempotentRequest {
	return &service.IdempotentRequest{Key: key, Actor: actor, Method: "POST", Path: "/api/v1/licences",
		BodyHash: hash, Status: 201, Encode: json.Marshal}
}

// testIdempotencyKeys: a licence created under an Idempotency-Key keeps
// the key and its answer in the same transaction; a second create with
// the key is ECONFLICT and stores no licence; a key that cannot be kept
// leaves no licence; keys are per actor and expire after
// service.IdempotencyTTL.
func testIdempotencyKeys(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	count := func() int {
		t.Helper()
		_, n, err := s.FindLicences(ctx, service.LicenceFilter{})
		must(t, "FindLicences", err)
		return n
	}

	_, err := s.FindIdempotencyKey(ctx, "desk", "k1")
	wantCode(t, "FindIdempotencyKey(unknown)", err, service.ENOTFOUND)

	l := newLicence(a.ID, "minneapolis", "2026-03-15")
	must(t, "CreateLicence(k1)", s.CreateLicence(service.WithIdempotency(ctx, idemReq("desk", "k1", "h1")), l))
	r, err := s.FindIdempotencyKey(ctx, "desk", "k1")
	must(t, "FindIdempotencyKey(k1)", err)
	var got service.Licence
	if err := json.Unmarshal(r.Body, &got); err != nil {
		t.Fatalf("stored answer %s: %v", r.Body, err)
	}
	if r.Status != 201 || r.Method != "POST" || r.Path != "/api/v1/licences" || r.BodyHash != "h1" ||
		got.ID != l.ID || got.TagNumber != l.TagNumber || !r.CreatedAt.Equal(c.Now().Truncate(time.Microsecond)) {
		t.Errorf("FindIdempotencyKey(k1) = %d %s %s %s at %v, licence %d tag %d; want 201 POST /api/v1/licences h1 at %v, licence %d tag %d",
			r.Status, r.Method, r.Path, r.BodyHash, r.CreatedAt, got.ID, got.TagNumber, c.Now(), l.ID, l.TagNumber)
	}

	// The same key again: refused, and no second licence.
	err = s.CreateLicence(service.WithIdempotency(ctx, idemReq("desk", "k1", "h1")), newLicence(another(t, s, a).ID, "minneapolis", "2026-03-15"))
	wantCode(t, "CreateLicence(k1 again)", err, service.ECONFLICT)
	if n := count(); n != 1 {
		t.Errorf("%d licences after a repeated key, want 1", n)
	}

	// Another actor's key of the same name is another key.
	must(t, "CreateLicence(k1 by clinic)", s.CreateLicence(service.WithIdempotency(ctx, idemReq("clinic", "k1", "h1")), newLicence(another(t, s, a).ID, "minneapolis", "2026-03-15")))

	// A key whose answer cannot be made takes its licence with it.
	bad := idemReq("desk", "k2", "h2")
	bad.Encode = func(any) ([]byte, error) { return nil, errors.New("no answer") }
	if err := s.CreateLicence(service.WithIdempotency(ctx, bad), newLicence(another(t, s, a).ID, "minneapolis", "2026-03-15")); err == nil {
		t.Errorf("CreateLicence with a key that cannot be kept = nil, want an error")
	}
	if n := count(); n != 2 {
		t.Errorf("%d licences after a key that could not be kept, want 2", n)
	}
	_, err = s.FindIdempotencyKey(ctx, "desk", "k2")
	wantCode(t, "FindIdempotencyKey(k2)", err, service.ENOTFOUND)

	// After the TTL the key is unknown, and can be used again.
	c.Set(c.Now().Add(service.IdempotencyTTL - time.Second))
	must(t, "FindIdempotencyKey(k1) before expiry", func() error { _, err := s.FindIdempotencyKey(ctx, "desk", "k1"); return err }())
	c.Set(c.Now().Add(2 * time.Second))
	_, err = s.FindIdempotencyKey(ctx, "desk", "k1")
	wantCode(t, "FindIdempotencyKey(k1) after expiry", err, service.ENOTFOUND)
	must(t, "CreateLicence(k1 after expiry)", s.CreateLicence(service.WithIdempotency(ctx, idemReq("desk", "k1", "h3")), newLicence(another(t, s, a).ID, "minneapolis", "2026-03-16")))
	r, err = s.FindIdempotencyKey(ctx, "desk", "k1")
	must(t, "FindIdempotencyKey(k1 renewed)", err)
	if r.BodyHash != "h3" {
		t.Errorf("key k1 used again after expiry has hash %q, want h3", r.BodyHash)
	}
}

// testIdempotencyKeysOtherRecords: owners, animals and vaccinations
// keep their key with the record the same way; a repeated key stores
// no second record.
func testIdempotencyKeysOtherRecords(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	keyed := func(key string) context.Context {
		r := idemReq("desk", key, "h")
		return service.WithIdempotency(ctx, r)
	}
	o := &service.Owner{Name: "Ida Berg", Address: "1 Elm St", City: "Minneapolis", State: "MN", Postcode: "55401", Phone: "612-555-0102"}
	must(t, "CreateOwner(o1)", s.CreateOwner(keyed("o1"), o))
	o2 := *o
	o2.ID = 0
	wantCode(t, "CreateOwner(o1 again)", s.CreateOwner(keyed("o1"), &o2), service.ECONFLICT)
	name := "Ida Berg"
	if _, n, err := s.FindOwners(ctx, service.OwnerFilter{Name: &name}); err != nil || n != 1 {
		t.Errorf("FindOwners(%q) = %d, %v after a repeated key, want 1", name, n, err)
	}

	a := &service.Animal{OwnerID: o.ID, Name: "Pip", Species: service.Cat}
	must(t, "CreateAnimal(a1)", s.CreateAnimal(keyed("a1"), a))
	a2 := *a
	a2.ID = 0
	wantCode(t, "CreateAnimal(a1 again)", s.CreateAnimal(keyed("a1"), &a2), service.ECONFLICT)
	if _, n, err := s.FindAnimals(ctx, service.AnimalFilter{OwnerID: &o.ID}); err != nil || n != 1 {
		t.Errorf("FindAnimals(owner) = %d, %v after a repeated key, want 1", n, err)
	}

	v := &service.RabiesVaccination{AnimalID: a.ID, Date: service.MustDate("2026-03-01"), DurationMonths: 12, Certificate: "MN-1"}
	must(t, "CreateVaccination(v1)", s.CreateVaccination(keyed("v1"), v))
	v2 := *v
	v2.ID = 0
	wantCode(t, "CreateVaccination(v1 again)", s.CreateVaccination(keyed("v1"), &v2), service.ECONFLICT)
	if vs, err := s.FindVaccinations(ctx, a.ID); err != nil || len(vs) != 1 {
		t.Errorf("FindVaccinations = %d, %v after a repeated key, want 1", len(vs), err)
	}

	for _, k := range []struct {
		key string
		id  int64
	}{{"o1", o.ID}, {"a1", a.ID}, {"v1", v.ID}} {
		r, err := s.FindIdempotencyKey(ctx, "desk", k.key)
		must(t, "FindIdempotencyKey("+k.key+")", err)
		var got struct{ ID int64 }
		if err := json.Unmarshal(r.Body, &got); err != nil || got.ID != k.id {
			t.Errorf("key %s answers %s, want the record %d", k.key, r.Body, k.id)
		}
	}
}
