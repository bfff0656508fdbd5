package storetest

import (
	"context"
	"slices"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// testSearch: the clerk's search finds owners by words of their name and
// address in any order, animals by their name, owners by a phone typed in
// any format (the digits, as lookup passes them), chips by their first
// digits; a change is found at once, and an old name no longer.
func testSearch(t *testing.T, s service.Store, _ *Clock) {
	ctx := context.Background()
	luis := &service.Owner{Name: "Luis Ortega", Address: "4410 Chicago Ave", City: "Minneapolis", Postcode: "55407", Phone: "612-555-0164"}
	must(t, "CreateOwner", s.CreateOwner(ctx, luis))
	ana := &service.Owner{Name: "Ana Ortega-Díaz", Address: "12 Oak Street", City: "Chanhassen", Phone: "(952) 555 0101"}
	must(t, "CreateOwner", s.CreateOwner(ctx, ana))
	must(t, "CreateOwner", s.CreateOwner(ctx, &service.Owner{Name: "Bo Berg", Phone: "+1 612.555.0164"}))
	pepper := &service.Animal{OwnerID: luis.ID, Name: "Pepper Jack", Species: service.Dog}
	must(t, "CreateAnimal", s.CreateAnimal(ctx, pepper))
	must(t, "AddChip", s.AddChip(ctx, &service.Chip{AnimalID: pepper.ID, Code: "982000411234567", Kind: "iso"}))

	names := func(os []*service.Owner) []string {
		var n []string
		for _, o := range os {
			n = append(n, o.Name)
		}
		return n
	}
	for _, tc := range []struct {
		words []string
		want  []string
	}{
		{[]string{"ortega"}, []string{"Ana Ortega-Díaz", "Luis Ortega"}},
		{[]string{"ortega", "luis"}, []string{"Luis Ortega"}},
		{[]string{"luis", "ortega"}, []string{"Luis Ortega"}},
		{[]string{"lu", "ort"}, []string{"Luis Ortega"}},
		{[]string{"12", "oak", "st"}, []string{"Ana Ortega-Díaz"}},
		{[]string{"chicago"}, []string{"Luis Ortega"}},
		{[]string{"55407"}, []string{"Luis Ortega"}},
		{[]string{"nobody"}, nil},
	} {
		got, err := s.SearchOwners(ctx, tc.words, 10)
		must(t, "SearchOwners", err)
		if n := names(got); !slices.Equal(n, tc.want) {
			t.Errorf("SearchOwners(%q) = %q, want %q", tc.words, n, tc.want)
		}
	}
	if got, err := s.SearchOwners(ctx, nil, 10); err != nil || len(got) != 0 {
		t.Errorf("SearchOwners(no words) = %d owners, %v; want none", len(got), err)
	}
	got, err := s.FindOwnersByPhone(ctx, []string{"6125550164", "16125550164"}, 10)
	must(t, "FindOwnersByPhone", err)
	if n := names(got); !slices.Equal(n, []string{"Bo Berg", "Luis Ortega"}) {
		t.Errorf("FindOwnersByPhone(612 555 0164) = %q", n)
	}
	got, err = s.FindOwnersByPhone(ctx, []string{"9525550101"}, 10)
	must(t, "FindOwnersByPhone", err)
	if n := names(got); !slices.Equal(n, []string{"Ana Ortega-Díaz"}) {
		t.Errorf("FindOwnersByPhone(952 555 0101) = %q", n)
	}
	as, err := s.SearchAnimals(ctx, []string{"pep"}, 10)
	must(t, "SearchAnimals", err)
	if len(as) != 1 || as[0].ID != pepper.ID {
		t.Errorf("SearchAnimals(pep) = %+v, want Pepper Jack", as)
	}
	cs, err := s.FindChipsByPrefix(ctx, "98200041", 10)
	must(t, "FindChipsByPrefix", err)
	if len(cs) != 1 || cs[0].AnimalID != pepper.ID {
		t.Errorf("FindChipsByPrefix(98200041) = %+v", cs)
	}
	for _, p := range []string{"_", "%", "98200042"} {
		if cs, err := s.FindChipsByPrefix(ctx, p, 10); err != nil || len(cs) != 0 {
			t.Errorf("FindChipsByPrefix(%q) = %d chips, %v; want none", p, len(cs), err)
		}
	}
	// Changes are searchable at once; the old words are gone.
	name := "Luisa Ortiz"
	_, err = s.UpdateOwner(ctx, luis.ID, service.OwnerUpdate{Name: &name})
	must(t, "UpdateOwner", err)
	if got, _ := s.SearchOwners(ctx, []string{"ortiz"}, 10); len(got) != 1 || got[0].ID != luis.ID {
		t.Errorf("after the change, SearchOwners(ortiz) = %q", names(got))
	}
	if got, _ := s.SearchOwners(ctx, []string{"luis", "ortega"}, 10); len(got) != 0 {
		t.Errorf("after the change, the old name still finds %q", names(got))
	}
	pet := "Biscuit"
	_, err = s.UpdateAnimal(ctx, pepper.ID, service.AnimalUpdate{Name: &pet})
	must(t, "UpdateAnimal", err)
	if as, _ := s.SearchAnimals(ctx, []string{"biscuit"}, 10); len(as) != 1 {
		t.Errorf("after the change, SearchAnimals(biscuit) = %d", len(as))
	}
}
