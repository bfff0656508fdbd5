package cmdline_test

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/chipdesk/chipdesk/internal/cmdline"
)

func Example() {
	greet := func(ctx context.Context, e *cmdline.Env, args []string) error {
		fs := flag.NewFlagSet("greet", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		shout := fs.Bool("shout", false, "upper case")
		names, ok, err := cmdline.ParseCommand(e, fs, args, "usage: demo greet NAME... [-shout]")
		if !ok {
			return err
		}
		if len(names) == 0 {
			return cmdline.UsageError("greet: want a NAME")
		}
		msg := "hello " + strings.Join(names, " and ")
		if *shout {
			msg = strings.ToUpper(msg)
		}
		fmt.Fprintln(e.Stdout, msg)
		return nil
	}
	cmds := []cmdline.Command{{Name: "greet", Summary: "greet people", Run: greet}}
	e := &cmdline.Env{Stdout: os.Stdout, Stderr: os.Stdout}
	ctx := context.Background()

	fmt.Println(cmdline.Run(ctx, "demo", e, cmds, []string{"greet", "ann", "-shout", "bob"}))
	fmt.Println(cmdline.Run(ctx, "demo", e, cmds, []string{"greet", "--", "-shout"}))
	fmt.Println(cmdline.Run(ctx, "demo", e, cmds, []string{"greet"}))
	fmt.Println(cmdline.Run(ctx, "demo", e, cmds, []string{"greet", "-h"}))
	// Output:
	// HELLO ANN AND BOB
	// 0
	// hello -shout
	// 0
	// demo greet: greet: want a NAME
	// 2
	// usage: demo greet NAME... [-shout]
	// 0
}
