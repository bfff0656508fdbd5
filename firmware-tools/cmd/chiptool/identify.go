package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/drivers/readers/catalog"
	"github.com/chipdesk/chipdesk/drivers/readers/discovery"
	"github.com/chipdesk/chipdesk/internal/cmdline"
)

const identifyUsage = `usage: chiptool identify PORT [--passive] [--listen DURATION] [--baud N]...

Tells a site what an unknown scanner on PORT is and how to configure it.
At each protocol's line settings (and each --baud) it listens for a read,
then, unless --passive, sends the harmless queries the protocols have
(RFIDRW-E VER, Allflex P, AVID's read trigger). It prints one JSON object:
the protocol, the reader family, the line (baud, framing), what it saw
(a read or an answer) and the reader spec to put in --reader or the
configuration file. A reader that only pushes reads is identified only
while a chip is held to it; exit status 1 when nothing answered.`

type identifyJSON struct {
	Port     string    `json:"port"`
	Protocol string    `json:"protocol"`
	Family   string    `json:"family"`
	Baud     int       `json:"baud"`
	Framing  string    `json:"framing"`
	Evidence string    `json:"evidence"`
	Reply    string    `json:"reply,omitempty"`
	Read     *readJSON `json:"read,omitempty"`
	// Reader is the --reader spec that configures this reader.
	Reader string `json:"reader"`
}

func runIdentify(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("identify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	passive := fs.Bool("passive", false, "send nothing, only listen")
	listen := fs.Duration("listen", 0, "how long to listen at each line setting (default 1.5s)")
	var extra bauds
	fs.Var(&extra, "baud", "another baud rate to try (repeatable)")
	pos, ok, err := cmdline.ParseCommand(e, fs, args, identifyUsage)
	if !ok {
		return err
	}
	if len(pos) != 1 {
		return cmdline.UsageError("want one PORT\n%s", identifyUsage)
	}
	res, err := discovery.ProbePath(ctx, pos[0], &discovery.Opts{Passive: *passive, Listen: *listen, Bauds: extra})
	if err != nil {
		return cmdline.Exit(1, fmt.Errorf("no reader identified on %s (a push-only reader needs a chip held to it): %w", pos[0], err))
	}
	p, err := catalog.Lookup(res.Protocol)
	if err != nil {
		return err
	}
	out := identifyJSON{
		Port: pos[0], Protocol: res.Protocol, Family: p.Summary, Baud: res.Mode.Baud, Framing: framing(res.Mode),
		Evidence: res.Evidence, Reply: strings.TrimSpace(string(res.Reply)),
		Reader: res.Protocol + ":" + pos[0],
	}
	if res.Mode.Baud != p.Mode.Baud {
		out.Reader += ",baud=" + strconv.Itoa(res.Mode.Baud)
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
