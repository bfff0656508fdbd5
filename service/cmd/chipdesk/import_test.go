package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/csvio"
)

// TestImportExportRoundTrip imports a generated data set, exports it,
// and imports the export into a fresh database: the files match.
func TestImportExportRoundTrip(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "in")
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	ws := map[csvio.Table]io.Writer{}
	for _, tb := range csvio.Tables {
		f, err := os.Create(filepath.Join(src, tb.File()))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		ws[tb] = f
	}
	if err := csvio.Generate(ws, csvio.GenOpts{Animals: 300, Seed: 7, On: service.MustDate("2026-03-15")}); err != nil {
		t.Fatal(err)
	}
	db1 := filepath.Join(dir, "one.db")
	code, out, errOut := serveCLI(t, "import", "--db", db1, src)
	if code != 0 || !regexp.MustCompile(`imported \d+ owners, 300 animals, \d+ chips, 300 licences`).MatchString(out) {
		t.Fatalf("import = %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	if !strings.Contains(errOut, "reading") {
		t.Errorf("import stderr %q, want a progress summary", errOut)
	}
	// All or nothing: importing the same rows again conflicts and stores nothing.
	if code, _, _ := serveCLI(t, "import", "--db", db1, "-q", filepath.Join(src, "owners.csv")); code == 0 {
		t.Error("importing owners twice succeeded")
	}
	exp := filepath.Join(dir, "out")
	if code, out, errOut := serveCLI(t, "export", exp, "--db", db1); code != 0 || !strings.Contains(out, "exported") {
		t.Fatalf("export = %d %s %s", code, out, errOut)
	}
	db2 := filepath.Join(dir, "two.db")
	if code, _, errOut := serveCLI(t, "import", "--db", db2, "-q", exp); code != 0 {
		t.Fatalf("import of the export = %d %s", code, errOut)
	}
	exp2 := filepath.Join(dir, "out2")
	if code, _, errOut := serveCLI(t, "export", "-q", "--db", db2, exp2); code != 0 {
		t.Fatalf("second export = %d %s", code, errOut)
	}
	for _, tb := range csvio.Tables {
		a, _ := os.ReadFile(filepath.Join(exp, tb.File()))
		b, _ := os.ReadFile(filepath.Join(exp2, tb.File()))
		if len(a) == 0 || string(a) != string(b) {
			t.Errorf("%s: export of the re-import differs (%d vs %d bytes)", tb, len(a), len(b))
		}
	}
}

func TestImportBadFiles(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "animals.csv")
	if err := os.WriteFile(bad, []byte("id,species\n1,dragon\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "x.db")
	code, _, errOut := serveCLI(t, "import", "--db", db, bad)
	if code != 1 || !strings.Contains(errOut, "nothing imported") || !strings.Contains(errOut, "species") {
		t.Errorf("bad row = %d %q, want 1 naming the column", code, errOut)
	}
	other := filepath.Join(dir, "pets.csv")
	if err := os.WriteFile(other, []byte("id\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := serveCLI(t, "import", "--db", db, other); code != 2 {
		t.Errorf("a file not named for a table = %d, want 2", code)
	}
}

func TestBarText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		done, total int64
		fill        int
	}{
		{"unknown total", 5, 0, 0},
		{"none", 0, 10, 0},
		{"half", 5, 10, barWidth / 2},
		{"all", 10, 10, barWidth},
		{"past the total", 12, 10, barWidth},
	}
	for _, tt := range tests {
		got := barText(tt.done, tt.total)
		want := "[" + strings.Repeat("#", tt.fill) + strings.Repeat(".", barWidth-tt.fill) + "]"
		if got != want {
			t.Errorf("%s: barText(%d, %d) = %q, want %q", tt.name, tt.done, tt.total, got, want)
		}
	}
}
