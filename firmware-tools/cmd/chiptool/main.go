package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// env is what a subcommand may touch: its streams and the clock. Tests
// call run with their own env.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	now            func() time.Time
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e *env, args []string) error
}

// exitError asks main to exit with code; a nil err prints nothing.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// exit returns an error that makes chiptool exit with code, printing err
// when it is not nil.
func exit(code int, err error) error { return &exitError{code: code, err: err} }

// usageError marks a bad command line; chiptool exits with status 2.
func usageError(format string, a ...any) error {
	return exit(2, fmt.Errorf(format, a...))
}

func commands() []command {
	return []command{
		{"telegram", "encode and decode ISO 11785 FDX-B telegrams", runTelegram},
		{"parse", "parse chip numbers as readers and people write them", runParse},
		{"trace", "decode raw antenna captures (.pm3) and synthesise them", runTrace},
		{"usb", "list USB devices, read wedge scanners, query printers, print udev rules", runUSB},
		{"sim", "simulate a microchip reader on a pseudo-terminal", runSim},
		{"ports", "list serial ports with their USB ids and adapters", runPorts},
		{"probe", "tell which reader protocol answers on a serial port", runProbe},
		{"tail", "print the chip reads of a reader as JSON lines", runTail},
		{"config", "show and change reader settings (firmware: vendor tool)", runConfig},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, now: time.Now}
	code := run(ctx, e, os.Args[1:])
	stop()
	os.Exit(code)
}

// run runs one command line and returns the exit status.
func run(ctx context.Context, e *env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(e.stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, e, args[1:])
		if err == nil {
			return 0
		}
		var ee *exitError
		if errors.As(err, &ee) {
			if ee.err != nil {
				fmt.Fprintf(e.stderr, "chiptool %s: %v\n", c.name, ee.err)
			}
			return ee.code
		}
		fmt.Fprintf(e.stderr, "chiptool %s: %v\n", c.name, err)
		return 1
	}
	fmt.Fprintf(e.stderr, "chiptool: unknown command %q\n", args[0])
	usage(e.stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: chiptool COMMAND [ARGS]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
}
