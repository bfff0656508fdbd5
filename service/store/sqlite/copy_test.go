package sqlite

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

func TestStoredValue(t *testing.T) {
	at := time.Date(2026, 3, 15, 12, 0, 0, 1500, time.FixedZone("CST", -6*3600))
	for _, tt := range []struct {
		name string
		in   any
		want any
	}{
		{"instant", at, "2026-03-15T18:00:00.000001500Z"},
		{"zero instant", time.Time{}, nil},
		{"date", service.MustDate("2026-02-01"), "2026-02-01"},
		{"zero date", service.Date(0), nil},
		{"true", true, int64(1)},
		{"false", false, int64(0)},
		{"text", "Rex", "Rex"},
	} {
		if got := StoredValue(tt.in); got != tt.want {
			t.Errorf("%s: StoredValue(%v) = %#v, want %#v", tt.name, tt.in, got, tt.want)
		}
	}
	back, err := ParseStamp(StoredValue(at).(string))
	if err != nil || !back.Equal(at) {
		t.Errorf("ParseStamp(StoredValue(%v)) = %v, %v", at, back, err)
	}
}

// TestCopyColumns: a copy sees every table of columns.Tables, with the
// columns the store selects, and none of the store's own.
func TestCopyColumns(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "chipdesk.db")
	db, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	c, err := OpenCopy(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cols, err := CopyColumns(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range columns.Tables {
		if len(cols[tb]) == 0 {
			t.Errorf("CopyColumns lacks %s", tb)
		}
	}
	for tb := range cols {
		if !slices.Contains(columns.Tables, tb) {
			t.Errorf("CopyColumns has %s, which no copy moves", tb)
		}
	}
	if got := len(cols["audit_events"]); got != len(strings.Split(columns.Audit, ",")) {
		t.Errorf("audit_events has %d columns, columns.Audit %d", got, len(strings.Split(columns.Audit, ",")))
	}
}
