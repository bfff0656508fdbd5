package main

import (
	"context"

	"github.com/chipdesk/chipdesk/internal/cmdline"
)

// run runs one chiptool command line as main does.
func run(ctx context.Context, e *cmdline.Env, args []string) int {
	return cmdline.Run(ctx, "chiptool", e, commands(), args)
}
