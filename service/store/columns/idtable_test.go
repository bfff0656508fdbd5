package columns

import (
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

func TestCheckIDTable(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		table string
		ok    bool
	}{
		{"owners", true},
		{"animals", true},
		{"licences", true},
		{"tokens", false},
		{"", false},
		{"Animals", false},
		{"animals; DROP TABLE owners", false},
	} {
		err := CheckIDTable(tt.table)
		if tt.ok && err != nil {
			t.Errorf("CheckIDTable(%q) = %v, want nil", tt.table, err)
		}
		if !tt.ok && service.ErrorCode(err) != service.EINVALID {
			t.Errorf("CheckIDTable(%q) = %v, want EINVALID", tt.table, err)
		}
	}
}
