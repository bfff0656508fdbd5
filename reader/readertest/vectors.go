package readertest

import (
	"os"
	"path/filepath"
	"testing"
)

// Vectors returns the folder of the shared RFID acceptance vectors
// (rfid/vectors in the shared folder that sits beside the checkout:
// Proxmark captures, telegram and reader-line vectors). The Proxmark
// captures come from a GPL-3.0 repository and are kept there, not in
// this source tree.
//
// When the folder is missing the test is skipped with a message, except
// when the environment variable CI is set: then it fails, so CI never
// passes without having read the captures. CHIPDESK_VECTORS overrides
// the location.
func Vectors(tb testing.TB) string {
	tb.Helper()
	if dir := os.Getenv("CHIPDESK_VECTORS"); dir != "" {
		return dir
	}
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatalf("readertest: %v", err)
	}
	// Walk up to the module root, then look beside it.
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			v := filepath.Join(dir, "..", "shared", "rfid", "vectors")
			if _, err := os.Stat(v); err != nil {
				missing(tb, v)
			}
			return v
		}
		if filepath.Dir(dir) == dir {
			missing(tb, "../shared/rfid/vectors beside the module root")
			return ""
		}
	}
}

func missing(tb testing.TB, where string) {
	tb.Helper()
	if os.Getenv("CI") != "" {
		tb.Fatalf("readertest: shared RFID vectors not found at %s", where)
	}
	tb.Skipf("readertest: shared RFID vectors not found at %s; set CHIPDESK_VECTORS", where)
}
