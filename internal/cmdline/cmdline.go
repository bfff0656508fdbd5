package cmdline

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// Env is what a subcommand may touch: its streams and the clock. Tests
// call Run with their own Env.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Now            func() time.Time
}

// Command is one subcommand of a program.
type Command struct {
	Name    string
	Summary string
	Run     func(ctx context.Context, e *Env, args []string) error
}

// exitError asks Run to exit with code; a nil err prints nothing.
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

// Exit returns an error that makes Run return code, printing err when it
// is not nil.
func Exit(code int, err error) error { return &exitError{code: code, err: err} }

// UsageError marks a bad command line: Run prints it and returns 2.
func UsageError(format string, a ...any) error {
	return Exit(2, fmt.Errorf(format, a...))
}

// Main runs program's command line from os.Args with the process's
// streams and clock, cancels the context on SIGINT or SIGTERM, and exits
// with Run's status.
func Main(program string, cmds []Command) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	e := &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Now: time.Now}
	code := Run(ctx, program, e, cmds, os.Args[1:])
	stop()
	os.Exit(code)
}

// Run runs one command line (args without the program name) and returns
// the exit status: 0 on success or help, the code of an Exit error, 1
// on any other error, 2 on no or an unknown command. Errors are printed
// to e.Stderr as "program command: error".
func Run(ctx context.Context, program string, e *Env, cmds []Command, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(e.Stderr, program, cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range cmds {
		if c.Name != args[0] {
			continue
		}
		err := c.Run(ctx, e, args[1:])
		msg := err
		var ee *exitError
		if errors.As(err, &ee) {
			msg = ee.err
		}
		if msg != nil {
			fmt.Fprintf(e.Stderr, "%s %s: %v\n", program, c.Name, msg)
		}
		return ExitCode(err)
	}
	fmt.Fprintf(e.Stderr, "%s: unknown command %q\n", program, args[0])
	usage(e.Stderr, program, cmds)
	return 2
}

// ExitCode is the exit status err asks for: 0 for nil, the code of an
// Exit or UsageError error (also wrapped), 1 for any other error.
func ExitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}

func usage(w io.Writer, program string, cmds []Command) {
	fmt.Fprintf(w, "usage: %s COMMAND [ARGS]\n\ncommands:\n", program)
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-10s %s\n", c.Name, c.Summary)
	}
}

// ParseArgs parses the flags of fs wherever they stand among args and
// returns the positional arguments in order. The first "--" that is not
// a flag's value ends the flags: everything after it is positional. A
// lone "-" is positional. The positional arguments also remain in
// fs.Args(). Errors are those of fs.Parse (flag.ErrHelp on -h).
func ParseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		if takesValue(fs, a) && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	if err := fs.Parse(flags); err != nil {
		return nil, err
	}
	if err := fs.Parse(append([]string{"--"}, pos...)); err != nil {
		return nil, err
	}
	return pos, nil
}

// takesValue reports whether flag argument a ("-name" or "--name", no
// "=value") names a flag of fs that takes the next argument as its
// value, as the flag package does: every defined flag but a boolean one.
func takesValue(fs *flag.FlagSet, a string) bool {
	name := strings.TrimPrefix(a[1:], "-")
	if strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return false
	}
	return true
}

// ParseCommand parses a subcommand's args with ParseArgs. On -h it
// prints usage to e.Stdout and returns ok false and a nil error (the
// command succeeds); on a bad flag, ok false and a usage error (exit
// status 2) carrying the flag error and usage.
func ParseCommand(e *Env, fs *flag.FlagSet, args []string, usage string) (pos []string, ok bool, err error) {
	pos, err = ParseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(e.Stdout, usage)
		return nil, false, nil
	}
	if err != nil {
		return nil, false, UsageError("%v\n%s", err, usage)
	}
	return pos, true, nil
}

// FlagError maps an error of ParseArgs to the exit contract: nil stays
// nil, flag.ErrHelp (the flag set has printed its usage) exits 0, any
// other error exits 2.
func FlagError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		return Exit(0, nil)
	}
	return Exit(2, err)
}
