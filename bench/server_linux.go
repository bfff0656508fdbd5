package bench

import (
	"os/exec"
	"syscall"
)

// setDeathSignal kills the child when the process that started it dies,
// so that an interrupted benchmark leaves no service behind.
func setDeathSignal(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
