package rules_test

import (
	"testing"

	"github.com/chipdesk/chipdesk/service/rules"
)

func TestParseMoney(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     int64
		ok       bool
	}{
		{"whole", "25", 2500, true},
		{"cents", "25.00", 2500, true},
		{"dollar sign", "$7.5", 750, true},
		{"spaces", " 12.34 ", 1234, true},
		{"zero", "0", 0, true},
		{"negative", "-5", 0, false},
		{"three decimals", "1.234", 0, false},
		{"empty", "", 0, false},
		{"words", "ten", 0, false},
		{"only cents", ".50", 0, false},
		{"huge", "99999999999", 0, false},
		{"signed cents", "1.-5", 0, false},
		{"plus cents", "1.+5", 0, false},
		{"plus", "+1", 0, false},
	} {
		got, err := rules.ParseMoney(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("%s: rules.ParseMoney(%q) = %d, %v, want %d, ok %v", tc.name, tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// FuzzParseMoney: Money's text parses back to the same cents, and
// no input panics.
func FuzzParseMoney(f *testing.F) {
	f.Add(int64(2500), "25.00")
	f.Add(int64(1), "$0.01")
	f.Add(int64(0), "x")
	f.Fuzz(func(t *testing.T, c int64, s string) {
		_, _ = rules.ParseMoney(s)
		if c < 0 || c > 1e9 {
			return
		}
		got, err := rules.ParseMoney(rules.Money(c))
		if err != nil || got != c {
			t.Errorf("rules.ParseMoney(%q) = %d, %v, want %d", rules.Money(c), got, err, c)
		}
	})
}
