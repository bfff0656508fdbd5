package iso11784

import (
	"errors"
	"testing"
)

func TestEmbeddedTables(t *testing.T) {
	t.Parallel()
	tb, err := parseTables(countriesTxt, manufacturersTxt)
	if err != nil {
		t.Fatalf("embedded tables: %v", err)
	}
	if n := len(tb.countries); n < 240 {
		t.Errorf("%d countries, want the full ISO 3166-1 list (about 249)", n)
	}
	if len(tb.rules) < 40 {
		t.Errorf("%d manufacturer rules", len(tb.rules))
	}
	for _, r := range tb.rules {
		code := (int(r.prefix[0]-'0')*100 + int(r.prefix[1]-'0')*10 + int(r.prefix[2]-'0'))
		if code < FirstManufacturer {
			t.Errorf("manufacturer rule %q is in the country range", r.prefix)
		}
	}
}

func TestParseTablesErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, countries, manufacturers string
	}{
		{"duplicate country", "124\tCanada\n124\tCanada again\n", ""},
		{"country in manufacturer range", "985\tNowhere\n", ""},
		{"two-digit country", "36\tAustralia\n", ""},
		{"no tab", "124 Canada\n", ""},
		{"short prefix", "", "98\t*\tX\n"},
		{"letters in prefix", "", "98A\t*\tX\n"},
		{"missing name", "", "985\t*\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := parseTables(tt.countries, tt.manufacturers); err == nil {
				t.Errorf("parseTables(%q, %q) = nil error", tt.countries, tt.manufacturers)
			}
		})
	}
}

func TestCountryName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		code   uint16
		want   string
		wantOK bool
	}{
		{124, "Canada", true},
		{840, "United States of America", true},
		{826, "United Kingdom", true},
		{250, "France", true},
		{36, "Australia", true},
		{0, "", false},
		{985, "", false},
		{1023, "", false},
	}
	for _, tt := range tests {
		got, ok := CountryName(tt.code)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("CountryName(%d) = %q, %t, want %q, %t", tt.code, got, ok, tt.want, tt.wantOK)
		}
		if IsCountryCode(tt.code) != tt.wantOK {
			t.Errorf("IsCountryCode(%d) = %t", tt.code, !tt.wantOK)
		}
	}
}

func TestCodeRanges(t *testing.T) {
	t.Parallel()
	for code, want := range map[uint16][2]bool{
		899: {false, false}, 900: {true, false}, 985: {true, false}, 998: {true, false}, 999: {false, true}, 1000: {false, false},
	} {
		if IsManufacturerCode(code) != want[0] || IsTestCode(code) != want[1] {
			t.Errorf("IsManufacturerCode(%d), IsTestCode = %t, %t, want %v", code, IsManufacturerCode(code), IsTestCode(code), want)
		}
	}
}

// TestManufacturer: the same code is a different brand per market
// (ICAR code 985: HomeAgain in the US, Lifechip in Australia).
func TestManufacturer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		code   uint16
		locale string
		want   string
		wantOK bool
	}{
		{"985 US", 985, "en_US", "HomeAgain", true},
		{"985 bare en is US", 985, "en", "HomeAgain", true},
		{"985 dash and case", 985, "EN-au", "Lifechip", true},
		{"985 AU", 985, "en_AU", "Lifechip", true},
		{"985 AU with charset", 985, "en_AU.UTF-8", "Lifechip", true},
		{"985 no locale", 985, "", "HomeAgain", true},
		{"953 pt_BR via bare pt", 953, "pt_BR", "Propecuária", true},
		{"956 US", 956, "en_US", "AKC Reunite", true},
		{"956 GB", 956, "en_GB", "Trovan", true},
		{"999 test", 999, "de_DE", "Transponder Test", true},
		{"900 shared has no single name", 900, "en_US", "", false},
		{"country code", 124, "en_US", "", false},
		{"invalid", 1000, "en_US", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := Manufacturer(tt.code, tt.locale)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Manufacturer(%d, %q) = %q, %t, want %q, %t", tt.code, tt.locale, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestCodeManufacturer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id15, locale, want string
	}{
		{"900164001234567", "en_US", "Save This Life"},
		{"900250000023921", "en_US", ""},
		{"982009123456789", "en_AU", "Allflex"},
		{"982000123456789", "en_AU", "24PetWatch"},
		{"985170000000001", "en_US", "HomeAgain Test Chip"},
		{"985170000000001", "en_GB", "Anibase/Identichip"},
		{"985170000000001", "en_AU", "Lifechip"},
		{"953010002123456", "en_AU", "Back Home"},
		{"981010012345678", "", "DataMARS/Banfield"},
	}
	for _, tt := range tests {
		c, err := ParseDecimal(tt.id15)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := c.Manufacturer(tt.locale)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("Code(%s).Manufacturer(%q) = %q, %t, want %q", tt.id15, tt.locale, got, ok, tt.want)
		}
	}
	if _, err := ParseDecimal("x"); !errors.Is(err, ErrSyntax) {
		t.Errorf("ParseDecimal(x) = %v", err)
	}
}
