package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Server is "chipdesk serve" running as a child process.
type Server struct {
	// URL is the base URL the service printed ("http://127.0.0.1:PORT").
	URL string

	cmd  *exec.Cmd
	done chan struct{}
	err  error // the Wait error, once done is closed

	mu  sync.Mutex
	log bytes.Buffer // the child's stderr, for errors
}

// urlRE finds the URL in serve's "serving" log line.
var urlRE = regexp.MustCompile(`url=(http://[^\s"]+)`)

// StartServer runs bin (a chipdesk binary) with args (starting with
// "serve"; add --listen 127.0.0.1:0) and waits until it logs the URL it
// serves, at most until ctx is done.
func StartServer(ctx context.Context, bin string, args ...string) (*Server, error) {
	s := &Server{cmd: exec.Command(bin, args...), done: make(chan struct{})}
	s.cmd.Env = append(os.Environ(), "CHIPDESK_LOG_LEVEL=info", "CHIPDESK_LOG_FORMAT=text")
	setDeathSignal(s.cmd)
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: start %s: %w", bin, err)
	}
	urls := make(chan string, 1)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		found := false
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			if s.log.Len() < 1<<20 {
				s.log.WriteString(line + "\n")
			}
			s.mu.Unlock()
			if m := urlRE.FindStringSubmatch(line); m != nil && !found {
				found = true
				urls <- m[1]
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	go func() {
		<-copied
		s.err = s.cmd.Wait()
		close(s.done)
	}()
	select {
	case s.URL = <-urls:
		return s, nil
	case <-s.done:
		return nil, fmt.Errorf("bench: %s exited before serving: %v\n%s", bin, s.err, s.Log())
	case <-ctx.Done():
		s.Kill()
		return nil, fmt.Errorf("bench: %s did not start: %w\n%s", bin, ctx.Err(), s.Log())
	}
}

// Log returns what the child wrote on stderr so far (at most 1 MiB).
func (s *Server) Log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// Pid is the child's process id.
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// PeakRSS returns the child's peak resident set size in bytes (VmHWM of
// /proc/PID/status, proc(5)); it must be read while the child runs.
func (s *Server) PeakRSS() (int64, error) { return peakRSS(s.cmd.Process.Pid) }

// CPU returns the child's user and system CPU time so far (utime and
// stime of /proc/PID/stat, proc(5), in clock ticks of 10 ms). On a
// machine shared with the load generator it tells what the service
// itself costs, apart from the rate the machine allows.
func (s *Server) CPU() (time.Duration, error) { return procCPU(s.cmd.Process.Pid) }

// SelfCPU is CPU for this process: the load generator's cost, which
// the lookups pay for on a machine whose cores it shares.
func SelfCPU() (time.Duration, error) { return procCPU(os.Getpid()) }

func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("bench: process CPU: %w", err)
	}
	// The fields after the command name, which stands in parentheses;
	// utime and stime are the 14th and 15th fields of the line.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 > len(b) {
		return 0, errors.New("bench: process CPU: malformed /proc stat")
	}
	f := strings.Fields(string(b[i+2:]))
	if len(f) < 13 {
		return 0, errors.New("bench: process CPU: short /proc stat")
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, fmt.Errorf("bench: process CPU: %w", err)
	}
	return time.Duration(ut+st) * 10 * time.Millisecond, nil
}

var hwmRE = regexp.MustCompile(`VmHWM:\s+(\d+) kB`)

func peakRSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("bench: peak memory: %w", err)
	}
	m := hwmRE.FindSubmatch(b)
	if m == nil {
		return 0, errors.New("bench: peak memory: no VmHWM in /proc status")
	}
	kb, err := strconv.ParseInt(string(m[1]), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bench: peak memory: %w", err)
	}
	return kb << 10, nil
}

// Stop asks the child to shut down (SIGTERM) and waits at most timeout
// before killing it. It returns the child's exit error, if any, other
// than being killed by Stop itself.
func (s *Server) Stop(timeout time.Duration) error {
	select {
	case <-s.done:
		return s.err
	default:
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
		return s.err
	case <-time.After(timeout):
		s.Kill()
		return fmt.Errorf("bench: service did not stop within %s", timeout)
	}
}

// Kill ends the child at once (SIGKILL: no shutdown, no flushing) and
// waits for it.
func (s *Server) Kill() {
	s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
}

// Done is closed when the child has exited.
func (s *Server) Done() <-chan struct{} { return s.done }
