//go:build !linux

package main

import (
	"context"
	"errors"
)

// runSim needs Linux pseudo-terminals (package readersim).
func runSim(ctx context.Context, e *env, args []string) error {
	return exit(1, errors.New("the reader simulator needs Linux pseudo-terminals"))
}
