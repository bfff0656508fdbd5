package cmdline

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// testFlags is a flag set with a string -s, an int -n and a boolean -v.
func testFlags() (*flag.FlagSet, *string, *int, *bool) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs, fs.String("s", "", "a string"), fs.Int("n", 0, "a number"), fs.Bool("v", false, "a switch")
}

func TestParseArgs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    []string
		pos     []string
		s       string
		n       int
		v       bool
		wantErr error // nil: no error; errAny: some error
	}{
		{name: "empty", args: nil, pos: nil},
		{name: "flags before", args: []string{"-s", "x", "-v", "a", "b"}, pos: []string{"a", "b"}, s: "x", v: true},
		{name: "flags after", args: []string{"a", "b", "-n", "3", "--s=y"}, pos: []string{"a", "b"}, s: "y", n: 3},
		{name: "flags between", args: []string{"a", "-v", "b", "-s=z", "c"}, pos: []string{"a", "b", "c"}, s: "z", v: true},
		{name: "double dash ends flags", args: []string{"a", "--", "-v", "-s", "x"}, pos: []string{"a", "-v", "-s", "x"}},
		{name: "only first double dash counts", args: []string{"--", "--", "b"}, pos: []string{"--", "b"}},
		{name: "double dash as flag value", args: []string{"-s", "--", "a", "-v"}, pos: []string{"a"}, s: "--", v: true},
		{name: "dash value", args: []string{"-s", "-v", "a"}, pos: []string{"a"}, s: "-v"},
		{name: "lone dash is positional", args: []string{"-", "-v"}, pos: []string{"-"}, v: true},
		{name: "bool takes no value", args: []string{"-v", "a"}, pos: []string{"a"}, v: true},
		{name: "bool with value", args: []string{"-v=false", "a"}, pos: []string{"a"}},
		{name: "later flag wins", args: []string{"-n", "1", "a", "-n", "2"}, pos: []string{"a"}, n: 2},
		{name: "help", args: []string{"a", "-h"}, wantErr: flag.ErrHelp},
		{name: "help long", args: []string{"--help", "a"}, wantErr: flag.ErrHelp},
		{name: "unknown flag", args: []string{"a", "-x"}, wantErr: errAny},
		{name: "missing value", args: []string{"a", "-s"}, wantErr: errAny},
		{name: "bad int", args: []string{"-n", "x"}, wantErr: errAny},
		{name: "bad syntax", args: []string{"---s", "x"}, wantErr: errAny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fs, s, n, v := testFlags()
			pos, err := ParseArgs(fs, tt.args)
			switch {
			case tt.wantErr == errAny && err == nil:
				t.Fatalf("ParseArgs(%q) = %q, nil, want an error", tt.args, pos)
			case tt.wantErr == errAny:
				return
			case !errors.Is(err, tt.wantErr):
				t.Fatalf("ParseArgs(%q) error = %v, want %v", tt.args, err, tt.wantErr)
			case err != nil:
				return
			}
			if !slices.Equal(pos, tt.pos) || *s != tt.s || *n != tt.n || *v != tt.v {
				t.Errorf("ParseArgs(%q) = %q, -s %q -n %d -v %t; want %q, -s %q -n %d -v %t",
					tt.args, pos, *s, *n, *v, tt.pos, tt.s, tt.n, tt.v)
			}
			if !slices.Equal(fs.Args(), tt.pos) {
				t.Errorf("ParseArgs(%q): fs.Args() = %q, want %q", tt.args, fs.Args(), tt.pos)
			}
		})
	}
}

var errAny = errors.New("any error")

func TestParseCommand(t *testing.T) {
	t.Parallel()
	const use = "usage: test [-s S] ARG"
	tests := []struct {
		name     string
		args     []string
		pos      []string
		ok       bool
		code     int // exit status the error carries; 0 for nil
		stdout   string
		errWants string
	}{
		{name: "ok", args: []string{"a", "-v"}, pos: []string{"a"}, ok: true},
		{name: "help prints usage to stdout", args: []string{"-h"}, stdout: use + "\n"},
		{name: "bad flag is a usage error", args: []string{"-x"}, code: 2, errWants: use},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			fs, _, _, _ := testFlags()
			pos, ok, err := ParseCommand(&Env{Stdout: &out}, fs, tt.args, use)
			if !slices.Equal(pos, tt.pos) || ok != tt.ok {
				t.Errorf("ParseCommand(%q) = %q, %t, want %q, %t", tt.args, pos, ok, tt.pos, tt.ok)
			}
			if got := out.String(); got != tt.stdout {
				t.Errorf("ParseCommand(%q) stdout = %q, want %q", tt.args, got, tt.stdout)
			}
			if got := Run(context.Background(), "test", &Env{Stderr: io.Discard}, []Command{{Name: "c", Run: func(context.Context, *Env, []string) error { return err }}}, []string{"c"}); got != tt.code {
				t.Errorf("ParseCommand(%q) error %v exits %d, want %d", tt.args, err, got, tt.code)
			}
			if tt.errWants != "" && (err == nil || !strings.Contains(err.Error(), tt.errWants)) {
				t.Errorf("ParseCommand(%q) error = %v, want it to contain %q", tt.args, err, tt.errWants)
			}
		})
	}
}

func TestFlagError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		code int
	}{
		{"nil", nil, 0},
		{"help", flag.ErrHelp, 0},
		{"bad flag", errors.New("flag provided but not defined: -x"), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := FlagError(tt.err)
			if tt.err == nil && err != nil {
				t.Fatalf("FlagError(nil) = %v, want nil", err)
			}
			got := Run(context.Background(), "p", &Env{Stderr: io.Discard}, []Command{{Name: "c", Run: func(context.Context, *Env, []string) error { return err }}}, []string{"c"})
			if got != tt.code {
				t.Errorf("FlagError(%v) exits %d, want %d", tt.err, got, tt.code)
			}
		})
	}
}

func TestRun(t *testing.T) {
	t.Parallel()
	cmds := []Command{
		{Name: "ok", Summary: "succeeds", Run: func(_ context.Context, e *Env, args []string) error {
			fmt.Fprintf(e.Stdout, "ok %q at %s\n", args, e.Now().Format(time.DateOnly))
			return nil
		}},
		{Name: "fail", Summary: "fails", Run: func(context.Context, *Env, []string) error { return errors.New("broken") }},
		{Name: "usage", Summary: "bad command line", Run: func(context.Context, *Env, []string) error { return UsageError("want %d args", 2) }},
		{Name: "quiet", Summary: "exits 3 silently", Run: func(context.Context, *Env, []string) error { return Exit(3, nil) }},
		{Name: "wrapped", Summary: "wraps an exit", Run: func(context.Context, *Env, []string) error {
			return fmt.Errorf("outer: %w", Exit(4, errors.New("inner")))
		}},
	}
	tests := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{name: "no command", args: nil, code: 2, stderr: "usage: prog COMMAND [ARGS]\n\ncommands:\n"},
		{name: "help", args: []string{"-h"}, code: 0, stderr: "  ok         succeeds\n"},
		{name: "help word", args: []string{"help"}, code: 0, stderr: "  quiet      exits 3 silently\n"},
		{name: "unknown", args: []string{"nope"}, code: 2, stderr: "prog: unknown command \"nope\"\nusage: prog"},
		{name: "ok", args: []string{"ok", "a"}, code: 0, stdout: "ok [\"a\"] at 2026-03-01\n"},
		{name: "fail", args: []string{"fail"}, code: 1, stderr: "prog fail: broken\n"},
		{name: "usage error", args: []string{"usage"}, code: 2, stderr: "prog usage: want 2 args\n"},
		{name: "silent exit", args: []string{"quiet"}, code: 3},
		{name: "wrapped exit", args: []string{"wrapped"}, code: 4, stderr: "prog wrapped: inner\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out, errb bytes.Buffer
			e := &Env{Stdout: &out, Stderr: &errb, Now: func() time.Time { return time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC) }}
			code := Run(context.Background(), "prog", e, cmds, tt.args)
			if code != tt.code {
				t.Errorf("Run(%q) = %d, want %d (stderr %q)", tt.args, code, tt.code, errb.String())
			}
			if out.String() != tt.stdout {
				t.Errorf("Run(%q) stdout = %q, want %q", tt.args, out.String(), tt.stdout)
			}
			if !strings.Contains(errb.String(), tt.stderr) || (tt.stderr == "" && errb.Len() > 0) {
				t.Errorf("Run(%q) stderr = %q, want it to contain %q", tt.args, errb.String(), tt.stderr)
			}
		})
	}
}

func TestExitError(t *testing.T) {
	t.Parallel()
	inner := errors.New("inner")
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"with error", Exit(1, inner), "inner"},
		{"without error", Exit(5, nil), "exit status 5"},
		{"usage", UsageError("bad %q", "x"), `bad "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
	codes := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, 0},
		{"plain", inner, 1},
		{"exit", Exit(3, inner), 3},
		{"usage", UsageError("x"), 2},
		{"wrapped", fmt.Errorf("w: %w", Exit(0, nil)), 0},
	}
	for _, c := range codes {
		if got := ExitCode(c.err); got != c.want {
			t.Errorf("ExitCode(%s %v) = %d, want %d", c.name, c.err, got, c.want)
		}
	}
	if !errors.Is(Exit(1, inner), inner) {
		t.Errorf("errors.Is(Exit(1, inner), inner) = false, want true")
	}
}

// looksLikeFlag reports whether a would be taken as a flag or the "--"
// terminator when it stands before the terminator.
func looksLikeFlag(a string) bool { return len(a) >= 2 && a[0] == '-' }

// FuzzParseArgs checks that ParseArgs never panics, that what it
// returns is a subsequence of its input, and the round trip: positional
// arguments and flag values come back unchanged however the flags are
// interleaved with the positionals (positionals that look like flags go
// after "--").
func FuzzParseArgs(f *testing.F) {
	f.Add("a\x00b\x00c", "x", uint64(0), true)
	f.Add("a\x00-v\x00--", "--", uint64(5), false)
	f.Add("", "-s", uint64(77), true)
	f.Add("-\x00b", "", uint64(1<<40+3), false)
	f.Fuzz(func(t *testing.T, posBlob, sval string, seed uint64, v bool) {
		var want []string
		if posBlob != "" {
			want = strings.Split(posBlob, "\x00")
		}

		// Arbitrary input: no panic, the output is a subsequence.
		fs, _, _, _ := testFlags()
		if got, err := ParseArgs(fs, want); err == nil && !isSubsequence(got, want) {
			t.Fatalf("ParseArgs(%q) = %q, not a subsequence of the input", want, got)
		}

		// Round trip.
		flags := [][]string{{"-s", sval}}
		if v {
			flags = append(flags, []string{"-v"})
		}
		k := slices.IndexFunc(want, looksLikeFlag)
		if k < 0 {
			k = len(want)
		}
		var args []string
		for i := 0; i <= k; i++ {
			for len(flags) > 0 && (i == k || seed&1 == 1) {
				args = append(args, flags[0]...)
				flags, seed = flags[1:], seed>>1
			}
			seed >>= 1
			if i < k {
				args = append(args, want[i])
			}
		}
		if k < len(want) {
			args = append(append(args, "--"), want[k:]...)
		}
		fs, s, _, gv := testFlags()
		got, err := ParseArgs(fs, args)
		if err != nil {
			t.Fatalf("ParseArgs(%q) error %v, want nil", args, err)
		}
		if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("ParseArgs(%q) = %q, want %q", args, got, want)
		}
		if *s != sval || *gv != v {
			t.Errorf("ParseArgs(%q): -s %q -v %t, want -s %q -v %t", args, *s, *gv, sval, v)
		}
	})
}

func isSubsequence(sub, of []string) bool {
	for _, a := range of {
		if len(sub) > 0 && sub[0] == a {
			sub = sub[1:]
		}
	}
	return len(sub) == 0
}
