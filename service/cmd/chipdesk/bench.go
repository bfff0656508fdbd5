package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/bench"
	"github.com/chipdesk/chipdesk/internal/cmdline"
)

const benchUsage = `usage: chipdesk bench [-n ANIMALS] [--base ANIMALS] [--quick] [--json] [--postgres URL] [--smtp HOST:PORT] [--strict]

Builds a data set of generated animals (licences, chips, dangerous and
quarantined animals), runs "chipdesk serve" on loopback and prints one
table: each figure beside its target and a mark. With -n above --base
(1,000,000), every figure is measured at --base and a growth run at -n
follows: import, file size, lookups and memory, beside those at --base.`

// runBench is "chipdesk bench": package bench's figures as a table (or
// JSON). The exit status is 1 when a figure misses its target and
// --strict is given.
func runBench(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() { fmt.Fprintln(e.Stderr, benchUsage); fs.PrintDefaults() }
	var (
		n        = fs.Int("n", 1_000_000, "number of `animals` (one licence each)")
		base     = fs.Int("base", 1_000_000, "with -n above it, the `animals` of the full run, before the growth run at -n")
		quick    = fs.Bool("quick", false, "a quick run for CI: 20,000 animals, shorter loads, a reminder run of 500 licences")
		asJSON   = fs.Bool("json", false, "print the report as JSON")
		pg       = fs.String("postgres", envOr("CHIPDESK_BENCH_POSTGRES", ""), "PostgreSQL `URL` for the PostgreSQL figures (a schema is made and dropped)")
		dir      = fs.String("dir", "", "keep the data set and database in `dir` (default a temporary one)")
		clients  = fs.Int("clients", 16, "concurrent HTTP `clients` of the lookup load")
		duration = fs.Duration("duration", 10*time.Second, "`time` of each lookup load")
		scans    = fs.Int("scans", 500, "`number` of scans timed from the pty to the event")
		binary   = fs.String("binary", "", "chipdesk `executable` to serve (default this one)")
		smtp     = fs.String("smtp", envOr("CHIPDESK_TEST_SMTP", ""), "`host:port` of the SMTP server for the reminder run (default an in-process test server)")
		maildir  = fs.String("smtp-maildir", envOr("CHIPDESK_TEST_SMTP_MAILDIR", ""), "the --smtp server's Maildir `dir`, from which the run's messages are removed")
		remind   = fs.Int("reminders", 0, "`licences` of the reminder run (default a tenth of -n; 500 with --quick)")
		strict   = fs.Bool("strict", false, "exit 1 when a figure misses its target")
		quiet    = fs.Bool("q", false, "no progress lines on stderr")
		// The bare-stack floor's server, which bench runs as a child
		// of its own beside serve (not for use by hand).
		bare   = fs.String("bare-serve", "", "serve the bare-stack rows of `DB` (an SQLite file or URL) and nothing else")
		listen = fs.String("listen", "127.0.0.1:0", "`address` of the --bare-serve server")
	)
	if _, err := cmdline.ParseArgs(fs, args); err != nil {
		return cmdline.FlagError(err)
	}
	if fs.NArg() > 0 {
		return cmdline.UsageError("bench: unexpected argument %q", fs.Arg(0))
	}
	if *bare != "" {
		return bench.ServeBare(ctx, *bare, *listen, e.Stderr)
	}
	if *n <= 0 {
		return cmdline.UsageError("bench: -n must be positive")
	}
	if *base <= 0 {
		return cmdline.UsageError("bench: --base must be positive")
	}
	o := &bench.Opts{Animals: *n, Dir: *dir, Postgres: *pg, Clients: *clients, LookupTime: *duration,
		Scans: *scans, MicroTime: time.Second, Progress: e.Stderr, Now: e.Now, Binary: *binary, SMTP: *smtp, SMTPMaildir: *maildir, Reminders: *remind}
	if *n > *base {
		o.Animals, o.Growth = *base, *n
	}
	if *quick {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["n"] {
			o.Animals = 20_000
		}
		if !set["duration"] {
			o.LookupTime = 3 * time.Second
		}
		if !set["scans"] {
			o.Scans = 100
		}
		if !set["reminders"] {
			o.Reminders = 500
		}
		o.MicroTime = 300 * time.Millisecond
	}
	if *quiet {
		o.Progress = io.Discard
	}
	if o.Binary == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		o.Binary = exe
	}
	r, err := bench.Run(ctx, o)
	if err != nil {
		return err
	}
	if *asJSON {
		err = r.WriteJSON(e.Stdout)
	} else {
		err = r.WriteTable(e.Stdout)
	}
	if err != nil {
		return err
	}
	if failed := r.Failed(); *strict && len(failed) > 0 {
		return cmdline.Exit(1, fmt.Errorf("missed %s", strings.Join(failed, "; ")))
	}
	return nil
}
