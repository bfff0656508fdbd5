//go:build !linux

package bench

import "os/exec"

// setDeathSignal does nothing where the system has no parent-death
// signal; Stop and Kill end the child.
func setDeathSignal(*exec.Cmd) {}
