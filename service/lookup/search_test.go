package lookup_test

import (
	"context"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/lookup"
)

// TestSearchReadsWhatClerksType: how each text is read (Kind), and what
// it finds, through the store's indexes.
func TestSearchReadsWhatClerksType(t *testing.T) {
	t.Parallel()
	s, st := newService(t)
	ctx := context.Background()
	o := &service.Owner{Name: "Luis Ortega", Phone: "612-555-0164", Address: "4410 Chicago Ave"}
	if err := st.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	a := &service.Animal{OwnerID: o.ID, Name: "Pepper", Species: service.Dog}
	if err := st.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := st.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: "982000411234567", Kind: "iso"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		q, kind string
		hits    int
		missing int
	}{
		{"6125550164", "phone", 1, 0},
		{"(612) 555-0164", "phone", 1, 0},
		{"1-612-555-0164", "phone", 1, 0},
		{"612 555 0199", "phone", 0, 0},
		{"982000411234567", "chip", 0, 0},
		{"982000411", "partial-chip", 1, 6},
		{"98200041123456", "partial-chip", 1, 1},
		{"Ortega, Luis", "words", 1, 0},
		{"luis ORTEGA", "words", 1, 0},
		{"pepp", "words", 1, 0},
		{"chicago", "words", 1, 0},
		{"_", "", 0, 0},
		{"%%", "", 0, 0},
	} {
		res, err := s.Search(ctx, tc.q)
		if err != nil {
			t.Errorf("Search(%q): %v", tc.q, err)
			continue
		}
		if res.Kind != tc.kind || len(res.Hits) != tc.hits || res.MissingDigits != tc.missing {
			t.Errorf("Search(%q) = kind %q, %d hits, %d missing; want %q, %d, %d (%s)", tc.q, res.Kind, len(res.Hits), res.MissingDigits, tc.kind, tc.hits, tc.missing, res.Note)
		}
		if tc.kind == "chip" && (res.Answer == nil || !res.Answer.Found) {
			t.Errorf("Search(%q): no record of the chip", tc.q)
		}
	}
	if got := lookup.Words("Ortega-Díaz, Ana_%"); len(got) != 3 || got[0] != "ortega" || got[1] != "díaz" || got[2] != "ana" {
		t.Errorf("Words = %q", got)
	}
}
