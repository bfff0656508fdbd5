package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestSearchLikeClerks: GET /search finds what clerks type: a phone in
// any format (ten digits are a phone, not a chip), an owner's name in
// either order, a pet's name, an address, a partial chip with the digits
// still missing, a tag number two cities use (both listed, and said);
// each row shows the animal's warnings; "_" and "%" match nothing.
func TestSearchLikeClerks(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	luis := &service.Owner{Name: "Luis Ortega", Address: "4410 Chicago Ave", City: "Minneapolis", Phone: "612-555-0164"}
	must(f.store.CreateOwner(ctx, luis))
	pepper := &service.Animal{OwnerID: luis.ID, Name: "Pepper", Species: service.Dog}
	must(f.store.CreateAnimal(ctx, pepper))
	id := f.chip("982000411234567")
	must(f.store.AddChip(ctx, &service.Chip{AnimalID: pepper.ID, Code: id.Code, Kind: id.Kind}))
	// Tag 2026/1 in both cities: Pepper's in Minneapolis, Tom's in Chanhassen.
	for _, l := range []*service.Licence{
		{AnimalID: pepper.ID, Jurisdiction: "minneapolis", Year: 2026, TagNumber: 1, IssuedOn: service.MustDate("2026-01-10"), ExpiresOn: service.MustDate("2026-12-31")},
		{AnimalID: f.tom, Jurisdiction: "chanhassen", Year: 2026, TagNumber: 1, IssuedOn: service.MustDate("2026-01-12"), ExpiresOn: service.MustDate("2026-12-31")},
	} {
		must(f.store.CreateLicence(ctx, l))
	}
	c := f.client()
	c.login(service.RoleIntake)
	for _, tc := range []struct {
		name, q string
		want    []string
		not     []string
	}{
		{"phone digits", "6125550164", []string{"Pepper", "Luis Ortega", "phone number 612-555-0164"}, []string{"not a chip", "Not registered"}},
		{"phone (612)", "(612) 555-0164", []string{"Pepper", "Luis Ortega"}, nil},
		{"phone dots", "612.555.0164", []string{"Pepper"}, nil},
		{"phone with 1", "+1 612 555 0164", []string{"Pepper"}, nil},
		{"phone as stored", "612-555-0164", []string{"Pepper"}, nil},
		{"surname", "Ortega", []string{"Pepper", "matched by owner"}, nil},
		{"surname, name", "Ortega, Luis", []string{"Pepper"}, nil},
		{"name surname", "Luis Ortega", []string{"Pepper"}, nil},
		{"pet name", "pepper", []string{"Luis Ortega", "matched by pet name"}, nil},
		{"address", "4410 chicago", []string{"Pepper"}, []string{"Rex"}},
		{"status dangerous", "Jane Doe", []string{"Rex", `data-status="dangerous"`, "Tom"}, nil},
		{"partial chip", "98200041", []string{"Pepper", "7 digits are still missing"}, nil},
		{"tag in two cities", "2026/1", []string{"used by 2 cities", "Minneapolis", "Chanhassen", "Pepper", "Tom"}, nil},
		{"tag in one city", "chanhassen 2026/1", []string{"Tom"}, []string{"Pepper"}},
		{"underscore", "_", []string{"Type a chip number"}, []string{"Rex", "Pepper"}},
		{"percent", "%", []string{"Type a chip number"}, []string{"Rex", "Pepper"}},
		{"one letter", "o", []string{"at least two letters"}, []string{"Rex", "Pepper"}},
		{"initial and surname", "L Ortega", []string{"Pepper"}, nil},
	} {
		st, body := c.get("/search?q=" + url.QueryEscape(tc.q))
		if st != http.StatusOK {
			t.Errorf("%s: search %q = %d", tc.name, tc.q, st)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: search %q lacks %q", tc.name, tc.q, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(body, w) {
				t.Errorf("%s: search %q shows %q", tc.name, tc.q, w)
			}
		}
	}
	// In custody shows in the row.
	c.post("/animals/"+itoa(pepper.ID)+"/impound", url.Values{"jurisdiction": {"minneapolis"}})
	if _, body := c.get("/search?q=ortega"); !strings.Contains(body, `data-status="custody"`) {
		t.Errorf("search row of an impounded animal does not say in custody")
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
