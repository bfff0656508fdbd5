//go:build linux

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
	"github.com/chipdesk/chipdesk/internal/cmdline"
)

const simUsage = `usage: chiptool sim --protocol P --link PATH [--rate PER_SECOND] [--noise FRACTION] [--linger DURATION] [FILE]

Creates a pseudo-terminal that behaves as a reader of protocol P, makes
PATH a symlink to it, and sends a read for each chip number on standard
input (or in FILE), one per line, in the exact bytes that reader sends.
--rate limits reads per second, --noise puts random bytes between frames
(a fraction of all bytes sent, below 1). The simulator answers the
reader's commands (RFIDRW-E VER, SRA, LTG, RAT...; Allflex echo) and
keeps running after the input ends until interrupted, or for --linger.`

func runSim(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	proto := fs.String("protocol", "", "reader protocol")
	link := fs.String("link", "", "symlink to create to the pseudo-terminal")
	rate := fs.Float64("rate", 0, "reads per second (0: as fast as given)")
	noise := fs.Float64("noise", 0, "fraction of the bytes sent that are random noise, in [0, 1)")
	linger := fs.Duration("linger", 0, "exit this long after the input ends (0: run until interrupted)")
	seed := fs.Uint64("seed", 0, "noise seed (0: random)")
	pos, ok, err := cmdline.ParseCommand(e, fs, args, simUsage)
	if !ok {
		return err
	}
	if *proto == "" || *link == "" {
		return cmdline.UsageError("--protocol and --link are required\n%s", simUsage)
	}
	if len(pos) > 1 {
		return cmdline.UsageError("at most one FILE\n%s", simUsage)
	}
	in := e.Stdin
	if len(pos) == 1 {
		f, err := os.Open(pos[0])
		if err != nil {
			return cmdline.Exit(1, err)
		}
		defer f.Close()
		in = f
	}
	s, err := readersim.Start(&readersim.Opts{Protocol: *proto, Link: *link, Rate: *rate, Noise: *noise, Seed: *seed})
	if err != nil {
		return cmdline.UsageError("%v", err)
	}
	defer s.Close()
	fmt.Fprintf(e.Stderr, "chiptool sim: %s reader on %s (link %s)\n", *proto, s.TTY(), *link)
	n, err := s.Feed(ctx, in)
	if err != nil && ctx.Err() == nil {
		return cmdline.Exit(1, err)
	}
	fmt.Fprintf(e.Stderr, "chiptool sim: sent %d reads\n", n)
	if *linger > 0 {
		t := time.NewTimer(*linger)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
		return nil
	}
	<-ctx.Done()
	return nil
}
