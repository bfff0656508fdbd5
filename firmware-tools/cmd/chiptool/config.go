package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/serialport"
	"github.com/chipdesk/chipdesk/drivers/readers/allflex"
	"github.com/chipdesk/chipdesk/drivers/readers/catalog"
	"github.com/chipdesk/chipdesk/drivers/readers/rfidrw"
	"github.com/chipdesk/chipdesk/internal/cmdline"
)

const configUsage = `usage: chiptool config PORT --protocol rfidrw|allflex [--baud N] [--timeout DURATION] [--dry-run] [show | set KEY=VALUE ...]

Shows or changes the settings of the reader on PORT.

show (the default) prints one JSON object: the reader's identity and the
settings it reports. set applies each KEY=VALUE in order, waiting for
the reader to take each one; at the first refusal it stops, sends
nothing more and exits 1. It then reads the settings back and prints
them as show does, with "applied" listing what was set. Every key is
checked before anything is sent: an unknown key or value exits 2.
--dry-run opens nothing and prints the exact bytes that would be sent,
one command a line (hex, then quoted). A reader that does not answer
within --timeout (default 1s) is an error (exit 1).

rfidrw (Priority 1 Design RFIDRW-E, manual rev E p. 20): the identity is
the VER reply, and the antenna frequency (MOF) the only setting it
reports; there is no command that reads the others back, so they are
listed as "unreadable" and, after set, in "applied" as acknowledged
with OK. Refusals print the reply code and its meaning (?0 not
understood, ?1 no tag, ?2 read/write failure, ?3 block 0 denied,
?4 bad page). Keys:
` + "%s" + `
allflex (legacy ASCII protocol): the reader echoes every character and
sends no OK or error code, so a setting counts as taken when its echo
came back; P prints the settings. No identity command is documented.
Keys:
` + "%s" + `
Serial (Snn) and miscellaneous (Inn) settings are not offered: their
codes are not in the manuals we work from, and a wrong serial setting
cuts the link. WL-134 modules and the other protocols have no settings.

Firmware updates are not done here: the manuals we work from describe
no bootloader or update protocol for these readers, and an update sent
by guesswork can leave a reader that no longer starts. Use the vendor's
own update tool.`

// configHelp is configUsage with the key tables filled in.
func configHelp() string {
	var rk, ak strings.Builder
	for _, s := range rfidrw.Settings() {
		fmt.Fprintf(&rk, "  %-13s %-14s %s\n", s.Key, strings.Join(s.Values, "|"), s.Meaning)
	}
	for _, s := range allflexSettings() {
		fmt.Fprintf(&ak, "  %-13s %-14s %s\n", s.key, s.values, s.meaning)
	}
	return fmt.Sprintf(configUsage, rk.String(), ak.String())
}

// configJSON is what config prints.
type configJSON struct {
	Port       string            `json:"port"`
	Protocol   string            `json:"protocol"`
	Identity   string            `json:"identity,omitempty"`
	Settings   map[string]string `json:"settings"`
	Report     []string          `json:"report,omitempty"`
	Unreadable []string          `json:"unreadable,omitempty"`
	Applied    map[string]string `json:"applied,omitempty"`
}

// configSet is one KEY=VALUE of the command line and the command line
// (without its end) that applies it.
type configSet struct{ key, value, cmd string }

// allflexSetting is one Allflex setting: a command letter and a value
// pattern.
type allflexSetting struct {
	key, values, meaning string
	letter               string
	re                   *regexp.Regexp
}

// allflexSettings returns the Allflex settings offered (panel and
// portal readers manual v2.4, protocol appendix).
func allflexSettings() []allflexSetting {
	return []allflexSetting{{
		key: "format", values: "6 hex digits", letter: "B",
		meaning: "output format, the 24-bit mask of Bnnnnnn (E40239: TIRIS S2000-style lines)",
		re:      regexp.MustCompile(`^[0-9A-F]{6}$`),
	}}
}

func allflexCommand(key, value string) (string, error) {
	var keys []string
	for _, s := range allflexSettings() {
		keys = append(keys, s.key)
		if s.key != key {
			continue
		}
		v := strings.ToUpper(value)
		if !s.re.MatchString(v) {
			return "", fmt.Errorf("allflex: bad setting %s=%q, want %s", key, value, s.values)
		}
		return s.letter + v, nil
	}
	return "", fmt.Errorf("allflex: unknown key %q, want one of %s", key, strings.Join(keys, ", "))
}

func runConfig(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("config", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	proto := fs.String("protocol", "", "rfidrw or allflex")
	baud := fs.Int("baud", 0, "baud rate (default: the protocol's)")
	timeout := fs.Duration("timeout", time.Second, "how long to wait for each reply")
	dry := fs.Bool("dry-run", false, "print the bytes that would be sent, send nothing")
	pos, ok, err := cmdline.ParseCommand(e, fs, args, configHelp())
	if !ok {
		return err
	}
	if len(pos) < 1 {
		return cmdline.UsageError("want PORT\n%s", configHelp())
	}
	if *baud < 0 || *timeout <= 0 {
		return cmdline.UsageError("--baud must not be negative and --timeout must be positive")
	}
	path, verb, rest := pos[0], "show", []string(nil)
	if len(pos) > 1 {
		verb, rest = pos[1], pos[2:]
	}
	switch {
	case verb == "show" && len(rest) > 0:
		return cmdline.UsageError("show takes no arguments")
	case verb == "set" && len(rest) == 0:
		return cmdline.UsageError("set wants KEY=VALUE ...")
	case verb != "show" && verb != "set":
		return cmdline.UsageError("unknown action %q (want show or set)", verb)
	}
	var command func(k, v string) (string, error)
	var readBack []string
	switch *proto {
	case rfidrw.Format:
		command, readBack = rfidrw.SettingCommand, []string{"VER", "MOF"}
	case allflex.Format:
		command, readBack = allflexCommand, []string{"P"}
	case "":
		return cmdline.UsageError("missing --protocol (rfidrw or allflex)")
	default:
		return cmdline.UsageError("protocol %q has no settings (want rfidrw or allflex)", *proto)
	}
	var sets []configSet
	for _, kv := range rest {
		k, v, found := strings.Cut(kv, "=")
		if !found {
			return cmdline.UsageError("%q is not KEY=VALUE", kv)
		}
		cmd, err := command(k, v)
		if err != nil {
			return cmdline.UsageError("%v", err)
		}
		if *proto == allflex.Format {
			v = cmd[1:] // the mask as sent, in capitals
		}
		sets = append(sets, configSet{key: k, value: v, cmd: cmd})
	}
	if *dry {
		for _, s := range sets {
			printCommand(e.Stdout, s.cmd)
		}
		for _, c := range readBack {
			printCommand(e.Stdout, c)
		}
		return nil
	}
	p, _ := catalog.Lookup(*proto)
	mode := p.Mode
	if *baud > 0 {
		mode.Baud = *baud
	}
	sp, err := serialport.Open(path, &serialport.Opts{Mode: mode})
	if err != nil {
		return cmdline.Exit(1, err)
	}
	defer sp.Close()
	out := configJSON{Port: path, Protocol: *proto, Settings: map[string]string{}}
	if len(sets) > 0 {
		out.Applied = map[string]string{}
	}
	if *proto == rfidrw.Format {
		err = configRFIDRW(ctx, e, sp, mode, *timeout, sets, &out)
	} else {
		err = configAllflex(ctx, sp, *timeout, sets, &out)
	}
	if err != nil {
		return cmdline.Exit(1, err)
	}
	enc := json.NewEncoder(e.Stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// printCommand prints the bytes of one command line: hex, then quoted.
func printCommand(w io.Writer, cmd string) {
	b := []byte(cmd + "\r")
	fmt.Fprintf(w, "% x\t%q\n", b, b)
}

func configRFIDRW(ctx context.Context, e *cmdline.Env, sp port.Port, mode port.Mode, timeout time.Duration, sets []configSet, out *configJSON) error {
	d, err := rfidrw.New(sp, &rfidrw.Opts{Mode: mode, Now: e.Now, Timeout: timeout})
	if err != nil {
		return err
	}
	defer d.Close()
	for _, s := range sets {
		if err := d.Set(ctx, s.key, s.value); err != nil {
			if len(out.Applied) > 0 {
				fmt.Fprintf(e.Stderr, "chiptool config: applied before the refusal: %s\n", appliedList(sets, out.Applied))
			}
			return fmt.Errorf("%s=%s not taken: %w; nothing after it was sent", s.key, s.value, err)
		}
		out.Applied[s.key] = s.value
	}
	if out.Identity, err = d.Version(ctx); err != nil {
		return err
	}
	f, err := d.Frequency(ctx)
	if err != nil {
		return err
	}
	out.Settings["antenna-frequency"] = f
	out.Unreadable = rfidrw.Keys()
	return nil
}

func appliedList(sets []configSet, applied map[string]string) string {
	var l []string
	for _, s := range sets {
		if v, ok := applied[s.key]; ok && v == s.value {
			l = append(l, s.key+"="+s.value)
		}
	}
	return strings.Join(l, " ")
}

// errNoReply is returned when a reader sends nothing back in time.
var errNoReply = errors.New("no reply")

func configAllflex(ctx context.Context, sp port.Port, timeout time.Duration, sets []configSet, out *configJSON) error {
	c := newEchoLine(ctx, sp)
	defer c.stop()
	for _, s := range sets {
		if _, err := c.command(s.cmd, timeout, 0); err != nil {
			return fmt.Errorf("%s=%s: %w; nothing after it was sent", s.key, s.value, err)
		}
		out.Applied[s.key] = s.value
	}
	rep, err := c.command("P", timeout, 300*time.Millisecond)
	if err != nil {
		return err
	}
	var format string
	out.Report, format = allflexReport(rep)
	if format != "" {
		out.Settings["format"] = format
	}
	return nil
}

// allflexReport splits the reply to P into its non-empty lines and finds
// the format mask (B and 6 hex digits) in it; format is "" when there is
// none. The layout of the report is not documented, so nothing else is
// taken from it.
func allflexReport(rep []byte) (lines []string, format string) {
	for _, l := range strings.FieldsFunc(string(rep), func(r rune) bool { return r == '\r' || r == '\n' }) {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if m := regexp.MustCompile(`\bB([0-9A-Fa-f]{6})\b`).FindStringSubmatch(string(rep)); m != nil {
		format = strings.ToUpper(m[1])
	}
	return lines, format
}

// echoLine talks to a reader that echoes every character it receives.
type echoLine struct {
	p      port.Port
	ctx    context.Context
	ch     chan []byte
	done   chan struct{}
	cancel context.CancelFunc
	buf    []byte
}

func newEchoLine(ctx context.Context, p port.Port) *echoLine {
	ctx, cancel := context.WithCancel(ctx)
	c := &echoLine{p: p, ctx: ctx, ch: make(chan []byte, 16), done: make(chan struct{}), cancel: cancel}
	if t, ok := p.(port.Timeouter); ok {
		t.SetReadTimeout(50 * time.Millisecond)
	}
	go func() {
		defer close(c.done)
		b := make([]byte, 256)
		for ctx.Err() == nil {
			n, err := p.Read(b)
			if n > 0 {
				select {
				case c.ch <- bytes.Clone(b[:n]):
				case <-ctx.Done():
					return
				}
			}
			if err != nil && !errors.Is(err, port.ErrTimeout) {
				return
			}
		}
	}()
	return c
}

func (c *echoLine) stop() {
	c.cancel()
	<-c.done
}

// command sends cmd and CR and waits up to timeout for the echo. With
// quiet > 0 it then collects what follows until the line has been
// silent that long (or timeout passed) and returns it.
func (c *echoLine) command(cmd string, timeout, quiet time.Duration) ([]byte, error) {
	want := []byte(cmd + "\r")
	c.buf = c.buf[:0]
	if _, err := c.p.Write(want); err != nil {
		return nil, fmt.Errorf("allflex: %s: %w", cmd, err)
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		if i := bytes.Index(c.buf, want); i >= 0 {
			c.buf = c.buf[i+len(want):]
			break
		}
		select {
		case b := <-c.ch:
			c.buf = append(c.buf, b...)
		case <-c.ctx.Done():
			return nil, fmt.Errorf("allflex: %s: %w", cmd, c.ctx.Err())
		case <-deadline.C:
			return nil, fmt.Errorf("allflex: %w (no echo of %q within %v)", errNoReply, cmd, timeout)
		case <-c.done:
			return nil, fmt.Errorf("allflex: %s: the line closed", cmd)
		}
	}
	if quiet <= 0 {
		return nil, nil
	}
	idle := time.NewTimer(quiet)
	defer idle.Stop()
	for {
		select {
		case b := <-c.ch:
			c.buf = append(c.buf, b...)
			idle.Reset(quiet)
		case <-idle.C:
			return c.buf, nil
		case <-deadline.C:
			return c.buf, nil
		case <-c.done:
			return c.buf, nil
		}
	}
}
