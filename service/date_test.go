package service_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
	_ "time/tzdata"

	"github.com/chipdesk/chipdesk/service"
)

func TestDate(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		in      string
		weekday time.Weekday
	}{
		{"epoch", "1970-01-01", time.Thursday},
		{"first day", "0001-01-01", time.Monday},
		{"leap day", "2024-02-29", time.Thursday},
		{"far future", "9999-12-31", time.Friday},
		{"licence expiry", "2027-01-31", time.Sunday},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := service.ParseDate(tt.in)
			if err != nil {
				t.Fatalf("ParseDate(%q) = %v", tt.in, err)
			}
			if d.String() != tt.in || d.Weekday() != tt.weekday {
				t.Errorf("ParseDate(%q) = %s (%s), want %s (%s)", tt.in, d, d.Weekday(), tt.in, tt.weekday)
			}
			tm, _ := time.Parse(time.DateOnly, tt.in)
			if got := service.DateOf(tm); got != d || d.Time(time.UTC) != tm {
				t.Errorf("DateOf/Time disagree with ParseDate for %s", tt.in)
			}
		})
	}
	for _, bad := range []string{"2026-02-30", "2026-13-01", "26-01-01", "2026/01/01", "0000-01-01", "x"} {
		if _, err := service.ParseDate(bad); err == nil {
			t.Errorf("ParseDate(%q) = nil error, want an error", bad)
		}
	}
	if d, err := service.ParseDate(""); err != nil || !d.IsZero() || d.String() != "" {
		t.Errorf("ParseDate(\"\") = %v, %v; want the zero Date", d, err)
	}
}

func TestDateArithmetic(t *testing.T) {
	t.Parallel()
	d := service.MustDate
	for _, tt := range []struct {
		name string
		got  service.Date
		want string
	}{
		{"AddDays across a year", d("2026-12-30").AddDays(5), "2027-01-04"},
		{"AddDays back", d("2026-03-01").AddDays(-1), "2026-02-28"},
		{"AddMonths clamps Jan 31", d("2026-01-31").AddMonths(1), "2026-02-28"},
		{"AddMonths clamps to a leap Feb 29", d("2028-01-31").AddMonths(1), "2028-02-29"},
		{"AddYears from Feb 29", d("2024-02-29").AddYears(1), "2025-02-28"},
		{"AddMonths -12", d("2026-03-15").AddMonths(-12), "2025-03-15"},
		{"AddMonths -14", d("2026-01-10").AddMonths(-14), "2024-11-10"},
	} {
		if tt.got != d(tt.want) {
			t.Errorf("%s = %s, want %s", tt.name, tt.got, tt.want)
		}
	}
	if n := d("2026-03-15") - d("2026-03-10"); n != 5 {
		t.Errorf("date difference = %d, want 5", n)
	}
	chicago, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	} else {
		// 03:30 UTC on the 15th is still the 14th in Minnesota.
		at := time.Date(2026, 3, 15, 3, 30, 0, 0, time.UTC)
		if got := service.DateIn(at, chicago); got != d("2026-03-14") {
			t.Errorf("DateIn(%v, Chicago) = %s, want 2026-03-14", at, got)
		}
	}
}

func TestDateEncoding(t *testing.T) {
	t.Parallel()
	type rec struct {
		On   service.Date `json:"on"`
		Till service.Date `json:"till,omitzero"`
	}
	b, err := json.Marshal(rec{On: service.MustDate("2026-01-31")})
	if err != nil || string(b) != `{"on":"2026-01-31"}` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	var r rec
	if err := json.Unmarshal([]byte(`{"on":"2026-02-01","till":""}`), &r); err != nil || r.On != service.MustDate("2026-02-01") || !r.Till.IsZero() {
		t.Fatalf("Unmarshal = %+v, %v", r, err)
	}
	if err := json.Unmarshal([]byte(`{"on":"Feb 1"}`), &r); err == nil {
		t.Errorf("Unmarshal(bad date) = nil error")
	}
	var d service.Date
	for _, src := range []any{"2026-03-15", []byte("2026-03-15"), time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC)} {
		if err := d.Scan(src); err != nil || d != service.MustDate("2026-03-15") {
			t.Errorf("Scan(%T) = %s, %v", src, d, err)
		}
	}
	if err := d.Scan(nil); err != nil || !d.IsZero() {
		t.Errorf("Scan(nil) = %s, %v; want zero", d, err)
	}
	if v, _ := service.Date(0).Value(); v != nil {
		t.Errorf("zero Date Value = %v, want NULL", v)
	}
}

// FuzzParseDate checks that every date ParseDate accepts prints back to
// the same text, and that a Date's text parses back to it.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2026-01-31", "0001-01-01", "2024-02-29", "", "2026-1-1", "9999-12-31"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := service.ParseDate(s)
		if err != nil {
			return
		}
		if d.String() != s {
			t.Fatalf("ParseDate(%q).String() = %q", s, d.String())
		}
		d2, err := service.ParseDate(d.String())
		if err != nil || d2 != d {
			t.Fatalf("ParseDate(%q) = %v, %v; want %v", d.String(), d2, err, d)
		}
	})
}

func TestErrorCode(t *testing.T) {
	t.Parallel()
	app := service.Errorf(service.ENOTFOUND, "Animal %d not found.", 7)
	for _, tt := range []struct {
		name      string
		err       error
		code, msg string
	}{
		{"nil", nil, "", ""},
		{"application", app, service.ENOTFOUND, "Animal 7 not found."},
		{"wrapped", fmt.Errorf("sqlite: lookup: %w", app), service.ENOTFOUND, "Animal 7 not found."},
		{"internal", fmt.Errorf("sqlite: disk I/O error"), service.EINTERNAL, "Internal error."},
	} {
		if c, m := service.ErrorCode(tt.err), service.ErrorMessage(tt.err); c != tt.code || m != tt.msg {
			t.Errorf("%s: ErrorCode, ErrorMessage = %q, %q; want %q, %q", tt.name, c, m, tt.code, tt.msg)
		}
	}
}

func TestTokenSecret(t *testing.T) {
	t.Parallel()
	a, err := service.NewTokenSecret()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := service.NewTokenSecret()
	if a == b || len(a) != len(service.TokenPrefix)+32 || service.HashToken(a) == service.HashToken(b) {
		t.Errorf("NewTokenSecret = %q, %q", a, b)
	}
}

func ExampleDate_AddMonths() {
	d := service.MustDate("2026-01-31")
	fmt.Println(d.AddMonths(1), d.AddYears(1), d.AddDays(1), d.Weekday())
	// Output: 2026-02-28 2027-01-31 2026-02-01 Saturday
}
