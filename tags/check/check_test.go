package check

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		want Payload
		err  error
	}{
		{"canonical", "MPLS26-001234-7KQ2M", Payload{"MPLS", 2026, 1234, "7KQ2M"}, nil},
		{"seven digits", "CHAN27-1234567-00000", Payload{"CHAN", 2027, 1234567, "00000"}, nil},
		{"url form", "HTTPS://EX.ORG/T/MNDD26-000017-ZZZZZ", Payload{"MNDD", 2026, 17, "ZZZZZ"}, nil},
		{"short number", "MPLS26-1234-7KQ2M", Payload{}, ErrSyntax},
		{"padded beyond six", "MPLS26-0001234-7KQ2M", Payload{}, ErrSyntax},
		{"zero number", "MPLS26-000000-7KQ2M", Payload{}, ErrSyntax},
		{"lower case", "mpls26-001234-7KQ2M", Payload{}, ErrSyntax},
		{"letter U in code", "MPLS26-001234-7KQ2U", Payload{}, ErrSyntax},
		{"short code", "MPLS26-001234-7KQ2", Payload{}, ErrSyntax},
		{"one letter city", "M26-001234-7KQ2M", Payload{}, ErrSyntax},
		{"slash without scheme", "T/MPLS26-001234-7KQ2M", Payload{}, ErrSyntax},
		{"empty", "", Payload{}, ErrSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tt.text)
			if !errors.Is(err, tt.err) || (err == nil && got != tt.want) {
				t.Errorf("Parse(%q) = %v, %v, want %v, %v", tt.text, got, err, tt.want, tt.err)
			}
		})
	}
}

// TestVerify: every issued code verifies; a changed digit, another year
// or another city fails (Minneapolis 64.20, Chanhassen 5-55(d):
// counterfeit tags).
func TestVerify(t *testing.T) {
	t.Parallel()
	k := DevelopmentKeys()
	for _, j := range []string{"MPLS", "CHAN", "MNDD"} {
		for _, year := range []int{2026, 2027} {
			for n := 1; n <= 300; n++ {
				p, err := k.Issue(j, year, n)
				if err != nil {
					t.Fatalf("Issue(%s, %d, %d) = %v", j, year, n, err)
				}
				if got, err := k.Verify(p.String()); err != nil || got != p {
					t.Fatalf("Verify(%q) = %v, %v, want %v, nil", p, got, err, p)
				}
			}
		}
	}
	p, _ := k.Issue("MPLS", 2026, 1234)
	s := p.String()
	tests := []struct {
		name string
		text string
	}{
		{"changed number digit 64.20", strings.Replace(s, "001234", "001235", 1)},
		{"other year", strings.Replace(s, "MPLS26", "MPLS27", 1)},
		{"other city 5-55(d)", strings.Replace(s, "MPLS26", "CHAN26", 1)},
	}
	for i := 0; i < CodeLen; i++ {
		b := []byte(s)
		c := len(s) - CodeLen + i
		if b[c] == '0' {
			b[c] = '1'
		} else {
			b[c] = '0'
		}
		tests = append(tests, struct{ name, text string }{"changed check char", string(b)})
	}
	for _, tt := range tests {
		if _, err := k.Verify(tt.text); !errors.Is(err, ErrMismatch) {
			t.Errorf("%s: Verify(%q) = %v, want %v", tt.name, tt.text, err, ErrMismatch)
		}
	}
}

// TestFabricatedRate: of many made-up numbers, about 2^-25 pass.
func TestFabricatedRate(t *testing.T) {
	t.Parallel()
	k := DevelopmentKeys()
	passed := 0
	for n := 1; n <= 20000; n++ {
		p := Payload{"MPLS", 2026, n, "7KQ2M"}
		if _, err := k.Verify(p.String()); err == nil {
			passed++
		}
	}
	if passed > 1 {
		t.Errorf("%d of 20000 fabricated codes verified, want at most 1", passed)
	}
}

func TestKeyFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	secret := []byte("0123456789abcdef0123456789abcdef")
	file := "# Minneapolis\n" + FormatKey("MPLS", 2026, secret) + "\n\n" + FormatKey("MPLS", 2027, secret[1:]) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "mpls.keys"), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	k, err := LoadKeys(dir)
	if err != nil {
		t.Fatalf("LoadKeys = %v", err)
	}
	if k.Development() {
		t.Error("Development() = true for a key file")
	}
	p, err := k.Issue("MPLS", 2026, 42)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Verify(p.String()); err != nil {
		t.Errorf("Verify(%q) = %v", p, err)
	}
	dev, _ := DevelopmentKeys().Issue("MPLS", 2026, 42)
	if dev.Code == p.Code {
		t.Errorf("development and real key gave the same code %s", p.Code)
	}
	if _, err := k.Verify(dev.String()); !errors.Is(err, ErrMismatch) {
		t.Errorf("Verify(development code %q) = %v, want %v", dev, err, ErrMismatch)
	}
	if _, err := k.Issue("CHAN", 2026, 42); !errors.Is(err, ErrNoKey) {
		t.Errorf("Issue(CHAN) = %v, want %v", err, ErrNoKey)
	}
	bad := []struct{ name, text string }{
		{"short secret", "MPLS 2026 00112233"},
		{"two fields", "MPLS 2026"},
		{"bad year", "MPLS 1999 " + strings.Repeat("00", 16)},
		{"duplicate", "MPLS 2026 " + strings.Repeat("00", 16) + "\nMPLS 2026 " + strings.Repeat("11", 16)},
	}
	for _, tt := range bad {
		if _, err := ParseKeys(strings.NewReader(tt.text)); !errors.Is(err, ErrKeyFile) {
			t.Errorf("%s: ParseKeys(%q) = %v, want %v", tt.name, tt.text, err, ErrKeyFile)
		}
	}
	if _, err := LoadKeys(t.TempDir()); !errors.Is(err, ErrKeyFile) {
		t.Errorf("LoadKeys(empty dir) = %v, want %v", err, ErrKeyFile)
	}
}

// FuzzParse: Parse never panics, and whatever it accepts formats back to
// the same payload (round trip).
func FuzzParse(f *testing.F) {
	for _, s := range []string{"MPLS26-001234-7KQ2M", "HTTPS://EX.ORG/T/CHAN27-1234567-00000", "X-1-2", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		q, err := Parse(p.String())
		if err != nil || q != p {
			t.Fatalf("Parse(%q) = %v, %v, want %v", p.String(), q, err, p)
		}
	})
}

// FuzzIssue: every issued payload parses back to itself and verifies.
func FuzzIssue(f *testing.F) {
	f.Add("MPLS", 2026, 1234)
	f.Add("ZZZZZZ", 2099, 999999999)
	k := DevelopmentKeys()
	f.Fuzz(func(t *testing.T, j string, year, number int) {
		p, err := k.Issue(j, year, number)
		if err != nil {
			return
		}
		if got, err := k.Verify(p.String()); err != nil || got != p {
			t.Fatalf("Verify(%q) = %v, %v, want %v", p, got, err, p)
		}
		if got, err := Parse(p.URL("HTTPS://EX.ORG/T/")); err != nil || got != p {
			t.Fatalf("Parse(URL %q) = %v, %v", p.URL("HTTPS://EX.ORG/T/"), got, err)
		}
	})
}
