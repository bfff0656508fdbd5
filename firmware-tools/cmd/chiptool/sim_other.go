//go:build !linux

package main

import (
	"context"
	"errors"

	"github.com/chipdesk/chipdesk/internal/cmdline"
)

// runSim needs Linux pseudo-terminals (package readersim).
func runSim(ctx context.Context, e *cmdline.Env, args []string) error {
	return cmdline.Exit(1, errors.New("the reader simulator needs Linux pseudo-terminals"))
}
