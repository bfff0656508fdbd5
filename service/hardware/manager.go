package hardware

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/chipdesk/chipdesk/drivers/readers/runner"
	"github.com/chipdesk/chipdesk/reader"
)

// OpenFunc opens the reader a Spec describes.
type OpenFunc func(ctx context.Context, sp Spec) (reader.Reader, error)

// ManagerOpts configures a Manager. Pipeline is required.
type ManagerOpts struct {
	Pipeline *Pipeline
	// Open opens a reader; nil opens the spec's port and the driver of
	// its kind from drivers/readers/catalog.
	Open OpenFunc
	// Logger receives connects, disconnects and failed scans; nil
	// discards.
	Logger *slog.Logger
	// Now is the clock of the drivers and the debounce; nil means
	// time.Now.
	Now func() time.Time
	// MinBackoff and MaxBackoff bound the wait before reopening a reader
	// that went away; zero means the runner's defaults.
	MinBackoff, MaxBackoff time.Duration
}

// Manager runs the configured readers, each under its own
// reconnecting, debouncing runner whose loop hands every read to the
// Pipeline.
type Manager struct {
	o   ManagerOpts
	log *slog.Logger

	mu      sync.Mutex
	specs   []Spec
	runners map[string]*runner.Runner
	running bool
}

// NewManager returns a Manager with no readers.
func NewManager(o *ManagerOpts) (*Manager, error) {
	if o == nil || o.Pipeline == nil {
		return nil, errors.New("hardware: manager needs a Pipeline")
	}
	m := &Manager{o: *o, log: o.Logger, runners: map[string]*runner.Runner{}}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	if m.o.Now == nil {
		m.o.Now = time.Now
	}
	if m.o.Open == nil {
		m.o.Open = m.openPort
	}
	return m, nil
}

// Add configures a reader from its KIND:PORT[,option=value...] text.
func (m *Manager) Add(spec string) error {
	sp, err := ParseSpec(spec)
	if err != nil {
		return err
	}
	return m.AddSpec(sp)
}

// AddSpec configures a reader. Names must be unique; readers are added
// before Run.
func (m *Manager) AddSpec(sp Spec) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.running {
		return errors.New("hardware: readers are added before Run")
	}
	for _, s := range m.specs {
		if s.Name == sp.Name {
			return fmt.Errorf("hardware: two readers named %q", sp.Name)
		}
	}
	m.specs = append(m.specs, sp)
	return nil
}

// openPort opens sp's port (serial, or an input device) and the
// catalog driver on it, in the spec's line (which defaults to the
// protocol's): the port is opened once in its final mode.
func (m *Manager) openPort(ctx context.Context, sp Spec) (reader.Reader, error) {
	proto, err := sp.protocol()
	if err != nil {
		return nil, err
	}
	proto.Mode = sp.Mode
	return proto.Opener(sp.Port, m.o.Now)(ctx)
}

// Run runs every configured reader until ctx is done, then closes them
// and returns nil. A reader that cannot be opened is retried with
// backoff; it never stops the others.
func (m *Manager) Run(ctx context.Context) error {
	m.mu.Lock()
	if m.running {
		m.mu.Unlock()
		return errors.New("hardware: Run called twice")
	}
	m.running = true
	specs := append([]Spec(nil), m.specs...)
	m.mu.Unlock()

	var wg sync.WaitGroup
	for _, sp := range specs {
		r, err := runner.New(func(ctx context.Context) (reader.Reader, error) { return m.o.Open(ctx, sp) }, &runner.Opts{
			Name: sp.Name, Debounce: sp.Debounce, Now: m.o.Now,
			MinBackoff: m.o.MinBackoff, MaxBackoff: m.o.MaxBackoff,
			OnEvent: func(e runner.Event) { m.event(sp, e) },
		})
		if err != nil {
			return err
		}
		m.mu.Lock()
		m.runners[sp.Name] = r
		m.mu.Unlock()
		// The runner's loop is the reader's: each read goes from it
		// straight into the pipeline. It returns once closed or ctx is
		// done, and retries everything else.
		p := m.o.Pipeline
		wg.Go(func() {
			r.Run(ctx, func(ctx context.Context, rd reader.Read) error {
				if _, err := p.handle(ctx, sp.Name, rd.ID, rd.At, "", p.site); err != nil {
					m.log.Error("hardware: scan not handled", "reader", sp.Name, "chip", rd.ID.Code, "err", err)
				}
				return nil
			})
		})
	}
	<-ctx.Done()
	m.mu.Lock()
	for _, r := range m.runners {
		r.Close()
	}
	m.mu.Unlock()
	wg.Wait()
	return nil
}

func (m *Manager) event(sp Spec, e runner.Event) {
	switch e.Kind {
	case runner.Connected:
		m.log.Info("reader connected", "reader", sp.Name, "device", e.Reader)
	case runner.OpenFailed:
		m.log.Warn("reader not available", "reader", sp.Name, "port", sp.Port, "err", e.Err, "retry_in", e.Wait)
	case runner.Disconnected:
		m.log.Warn("reader disconnected", "reader", sp.Name, "err", e.Err, "retry_in", e.Wait)
	case runner.Suppressed:
		m.log.Debug("repeat read suppressed", "reader", sp.Name, "chip", e.Read.ID.Code)
	}
}

// Status is the state of one configured reader.
type Status struct {
	Name      string `json:"name"`
	Spec      string `json:"spec"`
	Connected bool   `json:"connected"`
	// Reads counts scans passed on; Suppressed the debounced repeats.
	Reads      uint64 `json:"reads"`
	Suppressed uint64 `json:"suppressed"`
	Failures   uint64 `json:"failures"`
	LastError  string `json:"last_error,omitempty"`
}

// Status reports every configured reader, in the order added.
func (m *Manager) Status() []Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Status, 0, len(m.specs))
	for _, sp := range m.specs {
		st := Status{Name: sp.Name, Spec: sp.String()}
		if r := m.runners[sp.Name]; r != nil {
			s := r.Stats()
			st.Connected, st.Reads, st.Suppressed, st.Failures = s.Connected, s.Reads, s.Suppressed, s.Failures
			if s.LastErr != nil {
				st.LastError = s.LastErr.Error()
			}
		}
		out = append(out, st)
	}
	return out
}
