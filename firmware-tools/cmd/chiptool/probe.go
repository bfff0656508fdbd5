package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers/discovery"
	"github.com/chipdesk/chipdesk/internal/cmdline"
)

const probeUsage = `usage: chiptool probe PORT [--passive] [--listen DURATION] [--baud N]...

Tries each reader protocol on PORT, at its baud rate and any --baud
given: listens for a chip read, then sends each protocol's harmless
query (RFIDRW-E VER, Allflex P) unless --passive. Prints one JSON object
naming the protocol that answered, or exits 1 when none did. A reader
that only pushes reads is found only while a chip is held to it.`

type bauds []int

func (b *bauds) String() string { return fmt.Sprint(*b) }
func (b *bauds) Set(s string) error {
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil || n <= 0 {
		return fmt.Errorf("bad baud rate %q", s)
	}
	*b = append(*b, n)
	return nil
}

type probeJSON struct {
	Port     string    `json:"port"`
	Protocol string    `json:"protocol"`
	Baud     int       `json:"baud"`
	Framing  string    `json:"framing"`
	Evidence string    `json:"evidence"`
	Reply    string    `json:"reply,omitempty"`
	Read     *readJSON `json:"read,omitempty"`
}

func runProbe(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	passive := fs.Bool("passive", false, "send nothing, only listen")
	listen := fs.Duration("listen", 0, "how long to listen at each baud rate (default 1.5s)")
	var extra bauds
	fs.Var(&extra, "baud", "another baud rate to try (repeatable)")
	pos, ok, err := cmdline.ParseCommand(e, fs, args, probeUsage)
	if !ok {
		return err
	}
	if len(pos) != 1 {
		return cmdline.UsageError("want one PORT\n%s", probeUsage)
	}
	res, err := discovery.ProbePath(ctx, pos[0], &discovery.Opts{Passive: *passive, Listen: *listen, Bauds: extra})
	if err != nil {
		return cmdline.Exit(1, err)
	}
	m := res.Mode
	out := probeJSON{
		Port: pos[0], Protocol: res.Protocol, Baud: m.Baud, Evidence: res.Evidence,
		Framing: framing(m),
		Reply:   strings.TrimSpace(string(res.Reply)),
	}
	if res.Evidence == "read" {
		res.Read.At = e.Now()
		j := describeRead(res.Read)
		out.Read = &j
	}
	enc := json.NewEncoder(e.Stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// framing formats a mode's framing as "8N1", filling the zero values.
func framing(m port.Mode) string {
	d, p, s := m.DataBits, m.Parity, m.StopBits
	if d == 0 {
		d = 8
	}
	if p == 0 {
		p = port.ParityNone
	}
	if s == 0 {
		s = 1
	}
	return fmt.Sprintf("%d%c%d", d, p, s)
}
