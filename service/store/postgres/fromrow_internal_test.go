package postgres

import (
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestFromRowParts: a row's list parts decode part by part in one pass;
// null parts give empty lists and no designation; parts of another
// number are refused, not half read.
func TestFromRowParts(t *testing.T) {
	t.Parallel()
	year := service.MustDate("2025-03-15")
	tests := []struct {
		name, parts string
		ok          bool
	}{
		{"nulls", `[null,null,null,null,null,null,null]`, true},
		{"parts", `[[{"id":1,"code":"985141000123456"}],null,[],null,[{"id":9,"date":"2026-01-02"}],[{"id":4,"body":"{}"}],null]`, true},
		{"six parts", `[null,null,null,null,null,null]`, false},
		{"eight parts", `[null,null,null,null,null,null,null,null]`, false},
		{"not an array", `{"id":7}`, false},
	}
	for _, tt := range tests {
		r := &service.Record{}
		err := fromRow(r, []byte(tt.parts), year)
		if !tt.ok {
			if err == nil || !strings.Contains(err.Error(), "lookup row") {
				t.Errorf("%s: fromRow = %+v, %v; want a lookup row error", tt.name, r, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: fromRow: %v", tt.name, err)
		}
		if r.Chips == nil || r.Quarantines == nil || r.Impounds == nil || r.Bites == nil || r.Dangerous != nil {
			t.Errorf("%s: fromRow = %+v", tt.name, r)
		}
		switch tt.name {
		case "nulls":
			if len(r.Chips)+len(r.Bites)+len(r.Permits)+len(r.Agreements) != 0 {
				t.Errorf("nulls: chips %v bites %v permits %v agreements %v", r.Chips, r.Bites, r.Permits, r.Agreements)
			}
		case "parts":
			if len(r.Chips) != 1 || r.Chips[0].Code != "985141000123456" || len(r.Bites) != 1 || r.Bites[0].ID != 9 ||
				len(r.Permits) != 1 || r.Permits[0].ID != 4 || len(r.Agreements) != 0 {
				t.Errorf("parts: fromRow = %+v", r)
			}
		}
	}
}
