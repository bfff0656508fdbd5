package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/cmdline"
)

// run runs one chipdesk command line as main does.
func run(ctx context.Context, e *cmdline.Env, args []string) int {
	return cmdline.Run(ctx, "chipdesk", e, commands(), args)
}

// TestFlagContract: every subcommand takes its flags before, between or
// after its arguments; -h prints the flag usage on stderr and succeeds;
// an unknown flag exits 2; "--" ends the flags (POSIX.1-2017 XBD 12.2,
// guideline 10).
func TestFlagContract(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"export help", []string{"export", "-h"}, 0, "-db"},
		{"export bad flag", []string{"export", dir, "--bogus"}, 2, "bogus"},
		{"import help after file", []string{"import", "a.csv", "--help"}, 0, "-db"},
		{"import bad flag", []string{"import", "--bogus", "a.csv"}, 2, "bogus"},
		{"token help", []string{"token", "list", "-h"}, 0, "-db"},
		{"token bad flag", []string{"token", "revoke", "3", "--bogus"}, 2, "bogus"},
		{"print help", []string{"print", "list", "-h"}, 0, ""},
		{"demo bad flag", []string{"demo", "--bogus"}, 2, "bogus"},
		{"bench help", []string{"bench", "-h"}, 0, ""},
		{"audit help", []string{"audit", "compact", "-h"}, 0, "-keep-lookups-days"},
		{"audit bad flag", []string{"audit", "counts", "--bogus"}, 2, "bogus"},
		{"serve config bad flag", []string{"serve", "--bogus"}, 2, "bogus"},
		{"sync help", []string{"sync", "status", "-h"}, 0, "usage"},
		{"sync bad flag", []string{"sync", "--bogus"}, 2, "bogus"},
		{"tag help", []string{"tag", "designs", "-h"}, 0, "-designs"},
		{"tag bad flag", []string{"tag", "verify", "X", "--bogus"}, 2, "bogus"},
		{"tag double dash ends flags", []string{"tag", "verify", "--keys", "", "--", "--bogus"}, 1, ""},
		{"tag flag after double dash is an argument", []string{"tag", "render", "--", "--keys"}, 2, `unexpected argument "--keys"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out, errb bytes.Buffer
			e := &cmdline.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Now: time.Now}
			if code := run(context.Background(), e, tt.args); code != tt.code || !strings.Contains(errb.String(), tt.stderr) {
				t.Errorf("chipdesk %q = %d, stderr %q; want %d with %q", tt.args, code, errb.String(), tt.code, tt.stderr)
			}
		})
	}
}
