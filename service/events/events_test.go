package events_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/chipdesk/chipdesk/service/events"
)

func recv(t *testing.T, s *events.Sub, n int) []events.Event {
	t.Helper()
	var got []events.Event
	for range n {
		select {
		case ev, ok := <-s.C():
			if !ok {
				t.Fatalf("channel closed after %d events, want %d", len(got), n)
			}
			got = append(got, ev)
		default:
			t.Fatalf("got %d events, want %d", len(got), n)
		}
	}
	return got
}

func TestPublishFilter(t *testing.T) {
	t.Parallel()
	h := events.New(nil)
	defer h.Close()
	all := h.Subscribe("")
	desk1 := h.Subscribe("desk1")
	defer all.Close()
	defer desk1.Close()

	h.Publish("desk1", []byte("a"))
	h.Publish("desk2", []byte("b"))
	h.Publish("desk1", []byte("c"))

	tests := []struct {
		name string
		sub  *events.Sub
		want string
	}{
		{name: "all readers", sub: all, want: "a b c"},
		{name: "one reader", sub: desk1, want: "a c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got string
			for _, ev := range recv(t, tt.sub, len(tt.want)/2+1) {
				if got != "" {
					got += " "
				}
				got += string(ev.Data)
			}
			if got != tt.want {
				t.Errorf("events = %q, want %q", got, tt.want)
			}
			if len(tt.sub.C()) != 0 {
				t.Errorf("%d events left, want 0", len(tt.sub.C()))
			}
		})
	}
}

func TestSlowSubscriberDropsOldest(t *testing.T) {
	t.Parallel()
	h := events.New(&events.Opts{Buffer: 2})
	s := h.Subscribe("")
	defer s.Close()
	for i := range 5 {
		h.Publish("r", []byte{byte('0' + i)})
	}
	got := recv(t, s, 2)
	if string(got[0].Data) != "3" || string(got[1].Data) != "4" {
		t.Errorf("kept %q %q, want the newest \"3\" \"4\"", got[0].Data, got[1].Data)
	}
	if s.Dropped() != 3 {
		t.Errorf("Dropped() = %d, want 3", s.Dropped())
	}
}

func TestSubscribeSince(t *testing.T) {
	t.Parallel()
	h := events.New(&events.Opts{Replay: 3})
	for i := 1; i <= 5; i++ {
		h.Publish(fmt.Sprintf("r%d", i%2), []byte{byte('0' + i)})
	}
	tests := []struct {
		name        string
		reader      string
		after       uint64
		want        string
		wantDropped uint64
	}{
		{name: "within window", reader: "", after: 3, want: "45"},
		{name: "filtered", reader: "r1", after: 2, want: "35"},
		{name: "beyond window", reader: "", after: 0, want: "345", wantDropped: 2},
		{name: "up to date", reader: "", after: 5, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := h.SubscribeSince(tt.reader, tt.after)
			defer s.Close()
			var got string
			for len(s.C()) > 0 {
				got += string((<-s.C()).Data)
			}
			if got != tt.want {
				t.Errorf("SubscribeSince(%q, %d) replayed %q, want %q", tt.reader, tt.after, got, tt.want)
			}
			if s.Dropped() != tt.wantDropped {
				t.Errorf("Dropped() = %d, want %d", s.Dropped(), tt.wantDropped)
			}
		})
	}
}

func TestCloseEndsSubscriptions(t *testing.T) {
	t.Parallel()
	h := events.New(nil)
	s := h.Subscribe("")
	h.Close()
	if _, ok := <-s.C(); ok {
		t.Fatal("channel open after hub Close")
	}
	s.Close() // second close is harmless
	if ev := h.Publish("r", nil); ev.ID != 0 {
		t.Errorf("Publish after Close = id %d, want 0", ev.ID)
	}
	late := h.Subscribe("")
	if _, ok := <-late.C(); ok {
		t.Error("Subscribe after Close returned an open channel")
	}
}

func TestConcurrentPublish(t *testing.T) {
	t.Parallel()
	h := events.New(&events.Opts{Buffer: 1000})
	s := h.Subscribe("")
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for range 100 {
				h.Publish(fmt.Sprint(w), nil)
			}
		})
	}
	wg.Wait()
	s.Close()
	var last uint64
	n := 0
	for ev := range s.C() {
		if ev.ID <= last {
			t.Fatalf("event id %d after %d, want increasing", ev.ID, last)
		}
		last = ev.ID
		n++
	}
	if n != 400 {
		t.Errorf("received %d events, want 400", n)
	}
	if h.Subscribers() != 0 {
		t.Errorf("Subscribers() = %d after Close, want 0", h.Subscribers())
	}
}

func BenchmarkPublish(b *testing.B) {
	h := events.New(nil)
	s := h.Subscribe("r")
	defer s.Close()
	data := []byte(`{"reader":"r"}`)
	for b.Loop() {
		h.Publish("r", data)
		<-s.C()
	}
}
