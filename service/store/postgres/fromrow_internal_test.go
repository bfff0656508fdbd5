package postgres

import (
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestFromRowParts: a body decodes part by part in one pass; null parts
// give empty lists and absent owner, rabies and designation; a body of
// another number of parts is refused, not half read.
func TestFromRowParts(t *testing.T) {
	t.Parallel()
	year := service.MustDate("2025-03-15")
	animal := `{"id":7,"name":"Rex","species":"dog"}`
	tests := []struct {
		name, body string
		ok         bool
	}{
		{"nulls", `[` + animal + `,null,null,null,null,null,null,null]`, true},
		{"parts", `[` + animal + `,{"id":3,"name":"Ada"},[{"id":1,"code":"985141000123456"}],{"id":4,"lot":"L1"},null,[],null,[{"id":9,"date":"2026-01-02"}]]`, true},
		{"seven parts", `[` + animal + `,null,null,null,null,null,null]`, false},
		{"nine parts", `[` + animal + `,null,null,null,null,null,null,null,null]`, false},
		{"not an array", animal, false},
	}
	for _, tt := range tests {
		r, err := fromRow([]byte(tt.body), []byte(`[{"id":5,"tag_number":12}]`), year)
		if !tt.ok {
			if err == nil || !strings.Contains(err.Error(), "lookup row") {
				t.Errorf("%s: fromRow = %+v, %v; want a lookup row error", tt.name, r, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: fromRow: %v", tt.name, err)
		}
		if r.Animal.ID != 7 || r.Chips == nil || r.Quarantines == nil || r.Impounds == nil || r.Bites == nil ||
			len(r.Licences) != 1 || r.Licences[0].TagNumber != 12 || r.Dangerous != nil {
			t.Errorf("%s: fromRow = %+v", tt.name, r)
		}
		switch tt.name {
		case "nulls":
			if r.Owner != nil || r.Rabies != nil || len(r.Chips)+len(r.Bites) != 0 {
				t.Errorf("nulls: owner %v rabies %v chips %v bites %v", r.Owner, r.Rabies, r.Chips, r.Bites)
			}
		case "parts":
			if r.Owner == nil || r.Owner.ID != 3 || r.Rabies == nil || r.Rabies.Lot != "L1" || len(r.Chips) != 1 ||
				r.Chips[0].Code != "985141000123456" || len(r.Bites) != 1 || r.Bites[0].ID != 9 {
				t.Errorf("parts: fromRow = %+v", r)
			}
		}
	}
}
