package access

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// DefaultPoll is how often a Watcher reads the tokens and accounts: a
// revocation made in another process is seen within this time, well
// inside the second that the service promises.
const DefaultPoll = 200 * time.Millisecond

// WatchOpts configure a Watcher. Tokens is required.
type WatchOpts struct {
	Tokens service.TokenService
	// Users, when set, is watched for disabled accounts.
	Users service.UserService
	// Poll is the time between reads; 0 means DefaultPoll.
	Poll   time.Duration
	Logger *slog.Logger
}

// Watcher knows which tokens are revoked and which accounts disabled,
// as the database says at most Poll ago, and tells those who wait on
// Changed when that grows. It is safe for concurrent use.
type Watcher struct {
	o WatchOpts

	mu      sync.Mutex
	tokens  map[int64]bool // revoked
	users   map[int64]bool // disabled
	changed chan struct{}  // closed and replaced at every change
}

// NewWatcher returns a Watcher; call Run to keep it current.
func NewWatcher(o *WatchOpts) *Watcher {
	w := &Watcher{o: *o, tokens: map[int64]bool{}, users: map[int64]bool{}, changed: make(chan struct{})}
	if w.o.Poll <= 0 {
		w.o.Poll = DefaultPoll
	}
	if w.o.Logger == nil {
		w.o.Logger = slog.New(slog.DiscardHandler)
	}
	return w
}

// Run reads the database every Poll until ctx is done.
func (w *Watcher) Run(ctx context.Context) error {
	t := time.NewTicker(w.o.Poll)
	defer t.Stop()
	for {
		if err := w.Load(ctx); err != nil && ctx.Err() == nil {
			w.o.Logger.Warn("access: reading revocations", "err", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// Load reads the tokens and accounts once.
func (w *Watcher) Load(ctx context.Context) error {
	ts, err := w.o.Tokens.FindTokens(ctx)
	if err != nil {
		return err
	}
	var us []*service.User
	if w.o.Users != nil {
		if us, err = w.o.Users.FindUsers(ctx); err != nil {
			return err
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	grew := false
	for _, t := range ts {
		if !t.RevokedAt.IsZero() && !w.tokens[t.ID] {
			w.tokens[t.ID], grew = true, true
		}
	}
	for _, u := range us {
		if !u.Usable() && !w.users[u.ID] {
			w.users[u.ID], grew = true, true
		}
	}
	if grew {
		w.signal()
	}
	return nil
}

// signal wakes every waiter; w.mu is held.
func (w *Watcher) signal() {
	close(w.changed)
	w.changed = make(chan struct{})
}

// RevokedToken records at once a revocation this process made (the
// database has it too; the next Load would find it).
func (w *Watcher) RevokedToken(id int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.tokens[id] {
		w.tokens[id] = true
		w.signal()
	}
}

// DisabledUser is RevokedToken for an account.
func (w *Watcher) DisabledUser(id int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.users[id] {
		w.users[id] = true
		w.signal()
	}
}

// TokenRevoked reports whether token id is known revoked.
func (w *Watcher) TokenRevoked(id int64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.tokens[id]
}

// UserDisabled reports whether account id is known disabled.
func (w *Watcher) UserDisabled(id int64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.users[id]
}

// Changed returns a channel closed at the next revocation seen.
func (w *Watcher) Changed() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.changed
}
