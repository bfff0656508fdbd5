package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// ScanOpts describe a scan-to-event measurement.
type ScanOpts struct {
	// URL is the service's base URL; Token a staff token.
	URL, Token string
	// Reader is the reader's name in the service (the stream's filter).
	Reader string
	// Sim is the simulated reader the service reads.
	Sim *readersim.Sim
	// Chips are sent in turn (distinct chips, so no debounce applies).
	Chips []string
	// Scans is the number measured; 0 means 200.
	Scans int
}

// ScanToEvent sends chips on a simulated reader and measures, for each,
// the time from the last byte written on the pseudo-terminal to the
// scan's event read from the service's SSE stream. An event for another
// chip than the one sent is an error (a false read).
func ScanToEvent(ctx context.Context, o *ScanOpts) (Quantiles, error) {
	if o == nil || o.Sim == nil || len(o.Chips) == 0 {
		return Quantiles{}, errors.New("bench: scans need a simulated reader and chips")
	}
	n, ids, err := scanChips(o.Chips, o.Scans)
	if err != nil {
		return Quantiles{}, err
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(sctx, http.MethodGet, o.URL+"/api/v1/scans/stream?reader="+o.Reader, nil)
	if err != nil {
		return Quantiles{}, fmt.Errorf("bench: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+o.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return Quantiles{}, fmt.Errorf("bench: scan stream: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Quantiles{}, fmt.Errorf("bench: scan stream: %s", resp.Status)
	}
	type event struct {
		at   time.Time
		data string
	}
	events := make(chan event, 64)
	go func() {
		defer close(events)
		br := bufio.NewReader(resp.Body)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				events <- event{time.Now(), data}
			}
		}
	}()
	// The service opens the reader's port when it starts: send the first
	// chip until its event comes, so the measured scans find the reader
	// connected.
	for try := 0; ; try++ {
		if err := o.Sim.Send(ctx, ids[0]); err != nil {
			return Quantiles{}, fmt.Errorf("bench: %w", err)
		}
		select {
		case ev, ok := <-events:
			if !ok {
				return Quantiles{}, errors.New("bench: scan stream closed")
			}
			if !strings.Contains(ev.data, ids[0].Code) {
				return Quantiles{}, fmt.Errorf("bench: event for another chip than %s: %s", ids[0].Code, ev.data)
			}
		case <-time.After(250 * time.Millisecond):
			if try < 40 {
				continue
			}
			return Quantiles{}, errors.New("bench: no event from the simulated reader in 10 s")
		case <-ctx.Done():
			return Quantiles{}, ctx.Err()
		}
		break
	}
	lat := make([]time.Duration, 0, n)
	for i := range n {
		id := ids[(1+i)%len(ids)]
		if err := o.Sim.Send(ctx, id); err != nil {
			return Quantiles{}, fmt.Errorf("bench: %w", err)
		}
		sent := time.Now()
		select {
		case ev, ok := <-events:
			if !ok {
				return Quantiles{}, errors.New("bench: scan stream closed")
			}
			if !strings.Contains(ev.data, id.Code) {
				return Quantiles{}, fmt.Errorf("bench: scan %d of %s: event for another chip: %s", i, id.Code, ev.data)
			}
			lat = append(lat, ev.at.Sub(sent))
		case <-time.After(5 * time.Second):
			return Quantiles{}, fmt.Errorf("bench: scan %d of %s: no event within 5 s", i, id.Code)
		case <-ctx.Done():
			return Quantiles{}, ctx.Err()
		}
	}
	return quantiles(lat), nil
}

// scanChips is the number of scans to time (200 for 0) and the chips
// to send, parsed: one more than the scans, at most those given.
func scanChips(chips []string, scans int) (int, []chipid.ID, error) {
	n := scans
	if n <= 0 {
		n = 200
	}
	ids := make([]chipid.ID, 0, min(len(chips), n+1))
	for _, c := range chips[:min(len(chips), n+1)] {
		id, err := chipid.Parse(c, nil)
		if err != nil {
			return 0, nil, fmt.Errorf("bench: chip %q: %w", c, err)
		}
		ids = append(ids, id)
	}
	return n, ids, nil
}
