package events

import (
	"sync"
	"sync/atomic"
)

// Event is one published event. Data is the encoded payload (JSON for
// scan events), encoded once by the publisher and shared by every
// subscriber; subscribers must not modify it.
type Event struct {
	// ID increases by one per event published on the hub, starting at 1.
	ID uint64
	// Reader names the reader that produced the event; subscribers may
	// filter on it.
	Reader string
	// Site is where the event happened (the scan's site), "" when it
	// names none; a stream scoped to a site leaves out other sites'.
	Site string
	// Data is the payload.
	Data []byte
}

// Opts configures a Hub.
type Opts struct {
	// Buffer is the number of events each subscriber may have unread
	// before the oldest are dropped.
	Buffer int
	// Replay is the number of recent events kept for Since.
	Replay int
}

// DefaultOpts is used when New is given nil Opts.
var DefaultOpts = Opts{Buffer: 64, Replay: 256}

// Hub fans events out to subscribers. The zero value is not usable; call
// New.
type Hub struct {
	opts Opts

	mu     sync.Mutex
	subs   map[*Sub]struct{}
	nextID uint64
	ring   []Event // last Replay events, oldest first, ring[start:]+ring[:start]
	start  int
	closed bool
}

// New returns a hub. A nil o means DefaultOpts; zero fields take their
// default.
func New(o *Opts) *Hub {
	opts := DefaultOpts
	if o != nil {
		if o.Buffer > 0 {
			opts.Buffer = o.Buffer
		}
		if o.Replay > 0 {
			opts.Replay = o.Replay
		}
	}
	return &Hub{opts: opts, subs: make(map[*Sub]struct{})}
}

// Publish sends one event to every subscriber whose filter matches
// reader and returns it with its id. It never blocks on a subscriber.
// After Close it does nothing and returns an event with ID 0.
func (h *Hub) Publish(reader string, data []byte) Event { return h.PublishAt(reader, "", data) }

// PublishAt is Publish of an event that happened at site.
func (h *Hub) PublishAt(reader, site string, data []byte) Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return Event{}
	}
	h.nextID++
	ev := Event{ID: h.nextID, Reader: reader, Site: site, Data: data}
	if len(h.ring) < h.opts.Replay {
		h.ring = append(h.ring, ev)
	} else {
		h.ring[h.start] = ev
		h.start = (h.start + 1) % len(h.ring)
	}
	for s := range h.subs {
		if s.reader == "" || s.reader == reader {
			s.push(ev)
		}
	}
	return ev
}

// Subscribe returns a subscription to the events of reader, or of every
// reader when reader is empty. The caller must Close it.
func (h *Hub) Subscribe(reader string) *Sub { return h.subscribe(reader, nil) }

// SubscribeSince is Subscribe that first queues the retained events of
// reader published after the event with id after. Events older than the
// replay window are gone; Sub.Dropped counts them when they can be
// known to be missing.
func (h *Hub) SubscribeSince(reader string, after uint64) *Sub { return h.subscribe(reader, &after) }

// subscribe opens a subscription, replaying the retained events after
// *after when after is not nil.
func (h *Hub) subscribe(reader string, after *uint64) *Sub {
	s := &Sub{hub: h, reader: reader, c: make(chan Event, h.opts.Buffer)}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		close(s.c)
		s.done = true
		return s
	}
	if after != nil {
		h.replay(s, *after)
	}
	h.subs[s] = struct{}{}
	return s
}

// replay queues on s the retained events of its reader after the event
// with id after, counting those that fell out of the window. h.mu is
// held.
func (h *Hub) replay(s *Sub, after uint64) {
	n := len(h.ring)
	if n > 0 {
		if oldest := h.ring[h.start].ID; after+1 < oldest {
			s.dropped.Add(oldest - after - 1)
		}
	}
	for i := range n {
		ev := h.ring[(h.start+i)%n]
		if ev.ID > after && (s.reader == "" || s.reader == ev.Reader) {
			s.push(ev)
		}
	}
}

// LastID returns the id of the last event published, 0 when none was.
func (h *Hub) LastID() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.nextID
}

// Subscribers returns the number of open subscriptions.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// Close ends every subscription (their channels are closed) and makes
// Publish a no-op.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.closed = true
	for s := range h.subs {
		s.done = true
		close(s.c)
		delete(h.subs, s)
	}
}

// Sub is one subscription.
type Sub struct {
	hub     *Hub
	reader  string
	c       chan Event
	done    bool // guarded by hub.mu
	dropped atomic.Uint64
}

// C returns the channel of events. It is closed by Close and by the
// hub's Close.
func (s *Sub) C() <-chan Event { return s.c }

// Reader returns the reader filter, empty for all readers.
func (s *Sub) Reader() string { return s.reader }

// Dropped returns how many events this subscriber lost because it fell
// behind or reconnected too late.
func (s *Sub) Dropped() uint64 { return s.dropped.Load() }

// push queues ev, dropping the oldest queued event when the buffer is
// full. It is called with hub.mu held, so pushes never race each other.
func (s *Sub) push(ev Event) {
	for {
		select {
		case s.c <- ev:
			return
		default:
		}
		select {
		case <-s.c:
			s.dropped.Add(1)
		default:
		}
	}
}

// Close ends the subscription and closes its channel. It may be called
// more than once.
func (s *Sub) Close() {
	h := s.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	if s.done {
		return
	}
	s.done = true
	delete(h.subs, s)
	close(s.c)
}
