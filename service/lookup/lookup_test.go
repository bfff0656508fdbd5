package lookup_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

var now = time.Date(2026, 6, 10, 15, 0, 0, 0, time.UTC)

func newService(t *testing.T) (*lookup.Service, *sqlite.DB) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "l.db"), &sqlite.Opts{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rs, err := rules.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	s, err := lookup.New(&lookup.Opts{Store: st, Rules: rs, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}

// TestUnknownChipNextStep: a chip nobody registered answers with its
// maker and what to do, never a bare "not found".
func TestUnknownChipNextStep(t *testing.T) {
	t.Parallel()
	s, _ := newService(t)
	tests := []struct {
		name, chip, wantMaker, wantStep string
	}{
		{name: "manufacturer code (ISO 11784 900-998)", chip: "985121004515220", wantMaker: "HomeAgain", wantStep: "call HomeAgain"},
		{name: "country code (ISO 3166)", chip: "250269604001234", wantMaker: "France", wantStep: "national registry"},
		{name: "test code 999", chip: "999000000112233", wantStep: "test code"},
		{name: "AVID", chip: "AVID*012*345*678", wantMaker: "AVID", wantStep: "call AVID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := s.ByChip(context.Background(), tt.chip)
			if err != nil {
				t.Fatalf("ByChip(%q): %v", tt.chip, err)
			}
			if a.Found || a.Animal != nil || a.Owner != nil {
				t.Errorf("ByChip(%q) found %+v", tt.chip, a.Animal)
			}
			if a.Chip == nil || a.Chip.Manufacturer != tt.wantMaker && tt.wantMaker != "" {
				t.Errorf("ByChip(%q).Chip = %+v, want manufacturer %q", tt.chip, a.Chip, tt.wantMaker)
			}
			if !strings.Contains(a.NextStep, tt.wantStep) {
				t.Errorf("ByChip(%q).NextStep = %q, want it to mention %q", tt.chip, a.NextStep, tt.wantStep)
			}
			if len(a.Alerts) != len(a.AlertDetails) || a.Impounds == nil || a.Deadlines == nil {
				t.Errorf("lists not filled: %+v", a)
			}
		})
	}
}

func TestParseChipErrors(t *testing.T) {
	t.Parallel()
	s, _ := newService(t)
	tests := []struct {
		name, text, want string
	}{
		{name: "not a number", text: "hello", want: "not a chip number"},
		{name: "too short", text: "12345", want: "not a chip number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.ByChip(context.Background(), tt.text)
			if service.ErrorCode(err) != service.EINVALID || !strings.Contains(service.ErrorMessage(err), tt.want) {
				t.Errorf("ByChip(%q) = %v, want EINVALID %q", tt.text, err, tt.want)
			}
		})
	}
}

// TestJurisdictionFromRecord: with no licence, designation or
// impoundment, the owner's city picks the rules; the tag picks them for
// a tag lookup.
func TestJurisdictionFromRecord(t *testing.T) {
	t.Parallel()
	s, st := newService(t)
	ctx := context.Background()
	o := &service.Owner{Name: "Karin Solberg", City: "Chanhassen"}
	if err := st.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	a := &service.Animal{OwnerID: o.ID, Name: "Moose", Species: service.Dog}
	if err := st.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	ans, err := s.ByAnimal(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if ans.Jurisdiction != "chanhassen" || ans.Owner == nil || ans.Public().Owner != nil || ans.Owner == nil {
		t.Errorf("answer jurisdiction %q owner %+v; want chanhassen, and Public without the owner (leaving the original)", ans.Jurisdiction, ans.Owner)
	}
	if _, err := s.ByTag(ctx, "gotham", 2026, 1); service.ErrorCode(err) != service.EINVALID {
		t.Errorf("ByTag(gotham) = %v, want EINVALID", err)
	}
	nt, err := s.ByTag(ctx, "minneapolis", 0, 4242)
	if err != nil || nt.Found || nt.Tag == nil || nt.Tag.Year != 2026 || nt.NextStep == "" {
		t.Errorf("ByTag(unissued) = %+v, %v; want not found, year 2026 by default, a next step", nt, err)
	}
}
