package lookup_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/custody"
)

// TestRedemptionFeesNotSet_Chanhassen_5_74: Chanhassen 5-74(a) leaves
// impound and board fees to a resolution, and 5-53 the licence fee to
// chapter 4, which the rules do not have. The answer reports those lines
// with no amount (null, not_set, the note saying who sets it) and no
// total, never $0.00; Minneapolis 62.40 sets every line, so its total is
// given. A fee whose text reads two ways (Minneapolis 65.30(b), ferrets)
// has no amount either, and its note gives both readings.
func TestRedemptionFeesNotSet_Chanhassen_5_74(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, city, jurisdiction string
		species                  service.Species
		wantComplete             bool
		wantNotSet               []string // line codes without an amount
		wantConflict             string   // a line whose text reads two ways
	}{
		{name: "Chanhassen 5-74(a) by resolution", city: "Chanhassen", jurisdiction: "chanhassen", wantNotSet: []string{"impound", "board", "altered"}},
		{name: "Minneapolis 62.40 set", city: "Minneapolis", jurisdiction: "minneapolis", wantComplete: true},
		{name: "Minneapolis ferret 65.30(b) reads two ways", city: "Minneapolis", jurisdiction: "minneapolis", species: service.Ferret, wantConflict: "altered"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, st := newService(t)
			ctx := context.Background()
			o := &service.Owner{Name: "Karin Solberg", City: tt.city}
			if err := st.CreateOwner(ctx, o); err != nil {
				t.Fatal(err)
			}
			sp := tt.species
			if sp == "" {
				sp = service.Dog
			}
			a := &service.Animal{OwnerID: o.ID, Name: "Moose", Species: sp, Altered: true}
			if err := st.CreateAnimal(ctx, a); err != nil {
				t.Fatal(err)
			}
			cu, err := custody.New(&custody.Opts{Store: st, Rules: s.Rules(), Now: func() time.Time { return now }})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cu.Impound(ctx, &service.Impoundment{AnimalID: a.ID, Jurisdiction: tt.jurisdiction, IntakeOn: service.MustDate("2026-06-08")}); err != nil {
				t.Fatal(err)
			}
			ans, err := s.ByAnimal(ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			r := ans.Redemption
			if r == nil {
				t.Fatal("ByAnimal(impounded).Redemption = nil")
			}
			var sum int64
			notSet := map[string]bool{}
			for _, l := range r.Lines {
				switch {
				case l.State == "set":
					if l.Cents == nil || l.NotSet {
						t.Errorf("set line %+v has no amount", l)
					} else {
						sum += *l.Cents
					}
				case l.Cents != nil:
					t.Errorf("%s line %q has amount %d, want none", l.State, l.Code, *l.Cents)
				case l.State == "conflict":
					if l.Code != tt.wantConflict || l.NotSet || !strings.Contains(l.Note, "$20.00") || !strings.Contains(l.Note, "$25.00") {
						t.Errorf("conflict line %+v, want %q with both readings in the note", l, tt.wantConflict)
					}
					tt.wantConflict = ""
				case l.State == "not-set":
					notSet[l.Code] = true
					if !l.NotSet || l.Note == "" {
						t.Errorf("not-set line %+v, want not_set and a note saying who sets it", l)
					}
				}
			}
			for _, c := range tt.wantNotSet {
				if !notSet[c] {
					t.Errorf("lines %+v: %q is not reported as not set", r.Lines, c)
				}
			}
			if tt.wantConflict != "" {
				t.Errorf("lines %+v: no %q line reading two ways", r.Lines, tt.wantConflict)
			}
			if r.Complete != tt.wantComplete || r.KnownCents != sum {
				t.Errorf("redemption complete %v known %d, want %v and %d (the set lines)", r.Complete, r.KnownCents, tt.wantComplete, sum)
			}
			switch {
			case tt.wantComplete && (r.TotalCents == nil || *r.TotalCents != sum || sum == 0):
				t.Errorf("complete redemption total %v, want %d", r.TotalCents, sum)
			case !tt.wantComplete && r.TotalCents != nil:
				t.Errorf("incomplete redemption total %d, want none: a fee not set is not zero", *r.TotalCents)
			}
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			js := string(b)
			if !tt.wantComplete && (!strings.Contains(js, `"total_cents":null`) || !strings.Contains(js, `"cents":null`) || strings.Contains(js, `"cents":0`)) {
				t.Errorf("JSON %s, want null amounts and total, no zero", js)
			}
			if len(tt.wantNotSet) > 0 && !strings.Contains(js, `"not_set":true`) {
				t.Errorf("JSON %s, want not_set lines", js)
			}
		})
	}
}
