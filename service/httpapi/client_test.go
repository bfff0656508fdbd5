package httpapi_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/httpapi/apiclient"
)

func ptr[T any](v T) *T { return &v }

func day(s string) openapi_types.Date {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return openapi_types.Date{Time: t}
}

// client is the client oapi-codegen generated from the served document,
// speaking to the harness's server on loopback as role.
func (h *harness) client(role service.Role) *apiclient.ClientWithResponses {
	h.t.Helper()
	secret := h.tokens[role]
	c, err := apiclient.NewClientWithResponses(h.srv.URL, apiclient.WithHTTPClient(h.srv.Client()),
		apiclient.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
			r.Header.Set("Authorization", "Bearer "+secret)
			return nil
		}))
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

// TestGeneratedClientRoundTrip does a clerk's work through the client
// generated from the OpenAPI document, with no hand-written HTTP: a new
// owner, their dog, its chip, its rabies vaccination, its Minneapolis
// licence (64.30: $15 for an altered dog, expiring January 31 after
// issue), a change to the dog, and the lookup by chip an officer makes.
func TestGeneratedClientRoundTrip(t *testing.T) { onBackends(t, testGeneratedClientRoundTrip) }

func testGeneratedClientRoundTrip(t *testing.T, h *harness) {
	ctx := context.Background()
	clerk := h.client(service.RoleIntake)
	must := func(what string, status int, err error, want int, body []byte) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if status != want {
			t.Fatalf("%s = %d %s, want %d", what, status, body, want)
		}
	}

	o, err := clerk.CreateOwnerWithResponse(ctx, nil, apiclient.NewOwner{
		Name: "Maren Holt", Address: ptr("4120 Bryant Ave S"), City: ptr("Minneapolis"), State: ptr("MN"),
		Postcode: ptr("55409"), Phone: ptr("612-555-0133"),
	})
	must("create owner", o.StatusCode(), err, http.StatusCreated, o.Body)
	owner := o.JSON201
	if owner.Id == nil || *owner.Id == 0 || owner.Name != "Maren Holt" || owner.CreatedAt == nil {
		t.Fatalf("owner = %+v, want an id, the name and created_at", owner)
	}

	a, err := clerk.CreateAnimalWithResponse(ctx, nil, apiclient.NewAnimal{
		OwnerId: owner.Id, Name: ptr("Juniper"), Species: apiclient.Dog, Breed: ptr("Border collie"),
		Colour: ptr("black and white"), Sex: ptr(apiclient.Female), Altered: ptr(true), BirthDate: ptr(day("2022-03-14")),
	})
	must("create animal", a.StatusCode(), err, http.StatusCreated, a.Body)
	animal := a.JSON201
	if animal.OwnerId == nil || *animal.OwnerId != *owner.Id || animal.BirthDate == nil || animal.BirthDate.String() != "2022-03-14" {
		t.Fatalf("animal = %+v, want owner %d, born 2022-03-14", animal, *owner.Id)
	}

	const chip = "985 121 004 515 221" // as a person writes it
	c, err := clerk.AddChipWithResponse(ctx, *animal.Id, apiclient.ChipRequest{Chip: chip, ImplantDate: ptr(day("2022-06-01"))})
	must("add chip", c.StatusCode(), err, http.StatusCreated, c.Body)
	if c.JSON201.Code != "985121004515221" || c.JSON201.Kind != apiclient.Iso11784 || c.JSON201.AnimalId != *animal.Id {
		t.Errorf("chip = %+v, want ISO 985121004515221 on the animal", c.JSON201)
	}
	// The same chip again is a conflict, answered in the error shape.
	c2, err := clerk.AddChipWithResponse(ctx, *animal.Id, apiclient.ChipRequest{Chip: chip})
	must("add the chip again", c2.StatusCode(), err, http.StatusConflict, c2.Body)
	if c2.JSON409 == nil || c2.JSON409.Error.Code != apiclient.ErrorErrorCodeConflict || c2.JSON409.Error.Message == "" {
		t.Errorf("conflict answer = %s, want error.code conflict with a message", c2.Body)
	}

	v, err := clerk.CreateVaccinationWithResponse(ctx, nil, apiclient.NewVaccination{
		AnimalId: *animal.Id, Date: day("2026-05-20"), Type: ptr(apiclient.Killed), DurationMonths: ptr(36),
		ExtendedCertified: ptr(true), Certificate: ptr("MN-26-0520"), Veterinarian: ptr("Dr. Ilse Berg"),
	})
	must("record vaccination", v.StatusCode(), err, http.StatusCreated, v.Body)
	if v.JSON201.ExtendedCertified == nil || !*v.JSON201.ExtendedCertified || v.JSON201.Date.String() != "2026-05-20" {
		t.Errorf("vaccination = %+v, want extended_certified and the date", v.JSON201)
	}

	l, err := clerk.IssueLicenceWithResponse(ctx, &apiclient.IssueLicenceParams{IdempotencyKey: ptr("clerk-7-licence-1")},
		apiclient.LicenceRequest{AnimalId: *animal.Id, Jurisdiction: "minneapolis"})
	must("issue licence", l.StatusCode(), err, http.StatusCreated, l.Body)
	lic := l.JSON201
	if lic.FeeCents != 1500 || lic.Expires.String() != "2027-01-31" || lic.Status != apiclient.LicenceStatusActive || lic.TagNumber <= 0 {
		t.Errorf("licence = %+v, want $15, expiring 2027-01-31, active, with a tag (64.30)", lic)
	}
	// A retry with the same key gets the same licence, not a second one.
	l2, err := clerk.IssueLicenceWithResponse(ctx, &apiclient.IssueLicenceParams{IdempotencyKey: ptr("clerk-7-licence-1")},
		apiclient.LicenceRequest{AnimalId: *animal.Id, Jurisdiction: "minneapolis"})
	must("retry the licence", l2.StatusCode(), err, http.StatusCreated, l2.Body)
	if *l2.JSON201.Id != *lic.Id || l2.JSON201.TagNumber != lic.TagNumber {
		t.Errorf("retried licence %d tag %d, want %d tag %d", *l2.JSON201.Id, l2.JSON201.TagNumber, *lic.Id, lic.TagNumber)
	}
	g, err := clerk.GetLicenceWithResponse(ctx, *lic.Id)
	must("get licence", g.StatusCode(), err, http.StatusOK, g.Body)
	if g.JSON200.TagNumber != lic.TagNumber || g.JSON200.ExpiresOn.String() != "2027-01-31" || g.JSON200.AnimalId != *animal.Id {
		t.Errorf("stored licence = %+v, want tag %d expiring 2027-01-31", g.JSON200, lic.TagNumber)
	}

	// A change sends only what changes.
	u, err := clerk.UpdateAnimalWithResponse(ctx, *animal.Id, apiclient.AnimalUpdate{Description: ptr("white blaze, left ear notched")})
	must("change animal", u.StatusCode(), err, http.StatusOK, u.Body)
	if u.JSON200.Description == nil || *u.JSON200.Description != "white blaze, left ear notched" ||
		u.JSON200.Name == nil || *u.JSON200.Name != "Juniper" || u.JSON200.Breed == nil || *u.JSON200.Breed != "Border collie" {
		t.Errorf("changed animal = %+v, want the description changed and the rest kept", u.JSON200)
	}

	officer := h.client(service.RoleOfficer)
	lk, err := officer.LookupWithResponse(ctx, &apiclient.LookupParams{Chip: ptr(chip)})
	must("lookup", lk.StatusCode(), err, http.StatusOK, lk.Body)
	ans := lk.JSON200
	switch {
	case !ans.Found || ans.Animal == nil || ans.Animal.Id == nil || *ans.Animal.Id != *animal.Id:
		t.Errorf("lookup found %v animal %+v, want Juniper", ans.Found, ans.Animal)
	case ans.Owner == nil || ans.Owner.Name != "Maren Holt" || ans.Owner.Phone == nil || *ans.Owner.Phone != "612-555-0133":
		t.Errorf("lookup owner = %+v, want Maren Holt and her phone", ans.Owner)
	case ans.Licence == nil || ans.Licence.Status != "current" || ans.Licence.TagNumber == nil || *ans.Licence.TagNumber != lic.TagNumber:
		t.Errorf("lookup licence = %+v, want the current licence, tag %d", ans.Licence, lic.TagNumber)
	case ans.Rabies == nil || ans.Rabies.Status != "current":
		t.Errorf("lookup rabies = %+v, want current", ans.Rabies)
	case ans.Chip == nil || ans.Chip.Code != "985121004515221":
		t.Errorf("lookup chip = %+v", ans.Chip)
	}
}
