package postgres

import (
	"reflect"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// Every column of a record part must land in a field of its domain type
// under the field's JSON name, and every field must have a column, or a
// lookup would silently drop data.
func TestRecordPartsJSONNames(t *testing.T) {
	t.Parallel()
	types := []any{service.Animal{}, service.Owner{}, service.Chip{}, service.Licence{}, service.RabiesVaccination{},
		service.DangerousDesignation{}, service.Quarantine{}, service.Impoundment{}, service.BiteIncident{},
		permitPart{}, permitPart{}} // permit.go
	if len(types) != len(recordParts) {
		t.Fatalf("%d record parts, %d types", len(recordParts), len(types))
	}
	for i, p := range recordParts {
		typ := reflect.TypeOf(types[i])
		fields := map[string]bool{}
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue // not stored as a column (Licence.Vaccination)
			}
			fields[name] = true
		}
		cols := strings.Split(p.cols, ",")
		for _, c := range cols {
			c = strings.TrimSpace(c)
			if !fields[jsonName(c)] {
				t.Errorf("%s: column %s maps to JSON name %q, which %s does not have", typ.Name(), c, jsonName(c), typ.Name())
			}
		}
		if len(cols) != len(fields) {
			t.Errorf("%s has %d JSON fields, its record part %d columns", typ.Name(), len(fields), len(cols))
		}
	}
}

func TestJSONName(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, col, want string }{
		{"one word", "id", "id"},
		{"two words", "created_at", "created_at"},
		{"three words", "clinic_pay_cents", "clinic_pay_cents"},
		{"exception start", "start_on", "start"},
		{"exception end", "end_on", "end"},
	} {
		if got := jsonName(tt.col); got != tt.want {
			t.Errorf("%s: jsonName(%q) = %q, want %q", tt.name, tt.col, got, tt.want)
		}
	}
}
