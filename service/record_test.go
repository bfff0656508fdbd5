package service_test

import (
	"slices"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

func TestRecordSort(t *testing.T) {
	t.Parallel()
	d := func(day int) service.Date { return service.NewDate(2026, time.March, day) }
	r := &service.Record{
		Chips:       []service.Chip{{ID: 3}, {ID: 1}, {ID: 2}},
		Licences:    []service.Licence{{ID: 1, IssuedOn: d(1)}, {ID: 2, IssuedOn: d(5)}, {ID: 3, IssuedOn: d(5)}},
		Quarantines: []service.Quarantine{{ID: 1, Start: d(2)}, {ID: 2, Start: d(9)}},
		Impounds:    []service.Impoundment{{ID: 2, IntakeOn: d(3)}, {ID: 1, IntakeOn: d(3)}, {ID: 3, IntakeOn: d(4)}},
		Bites:       []service.BiteIncident{{ID: 1, Date: d(1)}, {ID: 2, Date: d(2)}},
	}
	r.Sort()
	ids := func(n int, id func(int) int64) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = id(i)
		}
		return out
	}
	tests := []struct {
		name      string
		got, want []int64
	}{
		{"ChipsOldestFirst", ids(len(r.Chips), func(i int) int64 { return r.Chips[i].ID }), []int64{1, 2, 3}},
		{"LicencesNewestFirst", ids(len(r.Licences), func(i int) int64 { return r.Licences[i].ID }), []int64{3, 2, 1}},
		{"QuarantinesNewestFirst", ids(len(r.Quarantines), func(i int) int64 { return r.Quarantines[i].ID }), []int64{2, 1}},
		{"ImpoundsNewestFirst", ids(len(r.Impounds), func(i int) int64 { return r.Impounds[i].ID }), []int64{3, 2, 1}},
		{"BitesNewestFirst", ids(len(r.Bites), func(i int) int64 { return r.Bites[i].ID }), []int64{2, 1}},
	}
	for _, tt := range tests {
		if !slices.Equal(tt.got, tt.want) {
			t.Errorf("%s: Sort() ids = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestRecordMatchChip(t *testing.T) {
	t.Parallel()
	r := &service.Record{Chips: []service.Chip{{ID: 1, Code: "985141000123456"}, {ID: 2, Code: "0A1B2C3D4E"}}}
	r.MatchChip("0A1B2C3D4E")
	if r.MatchedChip == nil || r.MatchedChip.ID != 2 {
		t.Fatalf("MatchChip(0A1B2C3D4E) = %+v, want chip 2", r.MatchedChip)
	}
	r.MatchedChip.Code = "changed"
	if r.Chips[1].Code != "0A1B2C3D4E" {
		t.Errorf("MatchChip: MatchedChip aliases Chips[1]")
	}
	r.MatchChip("999000000000001")
	if r.MatchedChip != nil {
		t.Errorf("MatchChip(999000000000001) = %+v, want nil", r.MatchedChip)
	}
}

func TestRecordDropLicencesExpiredBefore(t *testing.T) {
	t.Parallel()
	since := service.NewDate(2025, time.March, 15)
	r := &service.Record{Licences: []service.Licence{
		{ID: 1, ExpiresOn: service.NewDate(2026, time.December, 31)},
		{ID: 2, ExpiresOn: since},
		{ID: 3, ExpiresOn: since.AddDays(-1)},
	}}
	r.DropLicencesExpiredBefore(since)
	var got []int64
	for _, l := range r.Licences {
		got = append(got, l.ID)
	}
	if want := []int64{1, 2}; !slices.Equal(got, want) {
		t.Errorf("DropLicencesExpiredBefore(%v) kept %v, want %v", since, got, want)
	}
}

func TestRecordDropHistoryBefore(t *testing.T) {
	t.Parallel()
	since := service.NewDate(2025, time.March, 15)
	r := &service.Record{
		Impounds: []service.Impoundment{
			{ID: 1, IntakeOn: since, Disposition: service.Redeemed},
			{ID: 2, IntakeOn: since.AddDays(-1), Disposition: service.Redeemed},
			{ID: 3, IntakeOn: since.AddDays(-400), Disposition: service.Held}, // still open
		},
		Bites: []service.BiteIncident{{ID: 4, Date: since}, {ID: 5, Date: since.AddDays(-1)}},
	}
	r.DropHistoryBefore(since)
	var got []int64
	for _, i := range r.Impounds {
		got = append(got, i.ID)
	}
	for _, b := range r.Bites {
		got = append(got, b.ID)
	}
	if want := []int64{1, 3, 4}; !slices.Equal(got, want) {
		t.Errorf("DropHistoryBefore(%v) kept %v, want %v", since, got, want)
	}
}
