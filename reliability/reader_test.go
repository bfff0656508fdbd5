//go:build linux

package reliability

import (
	"bufio"
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
)

// scanEvent is what the test reads of an SSE scan event.
type scanEvent struct {
	at   time.Time
	chip string
}

// streamScans subscribes to the service's scan stream and returns the
// events, each with the chip code found in it.
func streamScans(ctx context.Context, t *testing.T, base, token, reader string, chips map[string]bool) <-chan scanEvent {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/v1/scans/stream?reader="+reader, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("scan stream = %s", resp.Status)
	}
	out := make(chan scanEvent, 1024)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		br := bufio.NewReader(resp.Body)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			data, ok := strings.CutPrefix(line, "data: ")
			if !ok {
				continue
			}
			ev := scanEvent{at: time.Now()}
			for c := range chips { // the chip the event is for, if one of ours
				if strings.Contains(data, c) {
					ev.chip = c
					break
				}
			}
			if ev.chip == "" {
				ev.chip = "unknown: " + strings.TrimSpace(data)
			}
			out <- ev
		}
	}()
	return out
}

// TestReaderNoiseAndReplug runs chipdesk serve with a WL-134 reader on a
// pseudo-terminal that puts random bytes between its frames (half the
// bytes are noise): every frame sent becomes one scan event, in order,
// and no event is for a chip not sent (no false read). Then the reader
// is unplugged (hang-up, the port gone) and plugged in again: the
// service reads from it again within 1 s, and the chip it repeats while
// in the field is one scan, not several.
func TestReaderNoiseAndReplug(t *testing.T) {
	t.Parallel()
	f := seed(t, 2000, true)
	link := filepath.Join(t.TempDir(), "ttyREADER")
	// The reader is plugged in before the service starts (the service
	// does not inherit the simulator's pseudo-terminal master: porttest
	// makes it close-on-exec, so the hang-up below reaches the service).
	sim, err := readersim.Start(&readersim.Opts{Protocol: "wl134", Link: link, Noise: 0.5, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	s := serve(t, f.db, "--reader", "wl134:"+link+",name=desk")
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(2*time.Minute))
	defer cancel()
	chips := f.ds.Chips
	want := map[string]bool{}
	for _, c := range chips {
		want[c] = true
	}
	events := streamScans(ctx, t, s.URL, f.tokens[service.RoleIntake], "desk", want)
	send := func(c string) {
		id, err := chipid.Parse(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := sim.Send(ctx, id); err != nil {
			t.Fatalf("Send(%s) = %v", c, err)
		}
	}
	next := func(within time.Duration) (scanEvent, bool) {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatalf("scan stream closed\n%s", s.Log())
			}
			return ev, true
		case <-time.After(within):
			return scanEvent{}, false
		}
	}
	// The service opens the port as it starts: the first chip is sent
	// until it is read.
	first := chips[0]
	for try := 0; ; try++ {
		send(first)
		if ev, ok := next(testtime.Scale(300 * time.Millisecond)); ok {
			if ev.chip != first {
				t.Fatalf("first event for %s, want %s", ev.chip, first)
			}
			break
		}
		if try == 30 {
			t.Fatalf("no scan from the reader in %s\n%s", 30*testtime.Scale(300*time.Millisecond), s.Log())
		}
	}
	// Drain repeats of the first chip (debounced: none expected).
	if ev, ok := next(100 * time.Millisecond); ok {
		t.Fatalf("event for %s after the first read, want none (debounced)", ev.chip)
	}

	// Noise: 500 chips, each read once, in order. They go in bursts of
	// 32, each read before the next is sent: the scan hub keeps 64 unread
	// events per subscriber (a page that falls further behind loses the
	// oldest), and this test's reader of the stream may be slower than
	// the service on a busy machine.
	n := min(500, len(chips)-10)
	const burst = 32
	for start := 0; start < n; start += burst {
		part := chips[1+start : 1+min(start+burst, n)]
		go func() {
			for _, c := range part {
				id, _ := chipid.Parse(c, nil)
				if sim.Send(ctx, id) != nil {
					return
				}
			}
		}()
		for j, c := range part {
			i := start + j
			ev, ok := next(testtime.Scale(10 * time.Second))
			if !ok {
				t.Fatalf("frame %d (%s): no event; %d frames sent", i, c, sim.Sent())
			}
			if ev.chip != c {
				t.Fatalf("event %d for %s, want %s", i, ev.chip, c)
			}
		}
	}
	if ev, ok := next(300 * time.Millisecond); ok {
		t.Fatalf("extra event for %s after the noisy frames", ev.chip)
	}

	// Unplug, wait, plug in again; the reader sends the chip in its
	// field every 50 ms until it is read.
	if err := sim.Hangup(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if err := sim.Reconnect(); err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	field := chips[n+2]
	var read time.Time
	var repeats int
	for read.IsZero() {
		// At most 50 frames: a pseudo-terminal nobody reads holds a few
		// kilobytes, then a write blocks.
		if repeats == 50 {
			t.Fatalf("no read within %s of plugging the reader in\n%s", time.Since(back).Round(time.Millisecond), s.Log())
		}
		send(field)
		repeats++
		if ev, ok := next(testtime.Scale(50 * time.Millisecond)); ok {
			if ev.chip != field {
				t.Fatalf("event for %s after the replug, want %s", ev.chip, field)
			}
			read = ev.at
		}
	}
	t.Logf("read again %s after the replug (%d frames sent)", read.Sub(back).Round(time.Millisecond), repeats)
	// Within 1 s (docs/promises.md), stretched by the test command's
	// factor on a machine that shares its cores.
	if d := read.Sub(back); d > testtime.Scale(time.Second) {
		t.Errorf("reconnected after %s, want within %s", d, testtime.Scale(time.Second))
	}
	// The chip stays in the field a little longer: still one scan.
	for range 10 {
		send(field)
		time.Sleep(20 * time.Millisecond)
	}
	last := chips[n+3]
	send(last)
	for {
		ev, ok := next(testtime.Scale(3 * time.Second))
		if !ok {
			t.Fatalf("no event for %s after the replug", last)
		}
		if ev.chip == last {
			break
		}
		t.Errorf("event for %s, want %s only (a repeat read twice?)", ev.chip, last)
	}
	if ev, ok := next(300 * time.Millisecond); ok {
		t.Errorf("extra event for %s at the end", ev.chip)
	}
}
