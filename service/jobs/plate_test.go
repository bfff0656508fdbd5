package jobs_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/jobs"
)

// TestBatchPlates: an engraver with a plate engraves a batch a plate of
// blanks at a time, asking for the next plate in between.
func TestBatchPlates(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	sim, dev := grblEngraver(t, nil, ",speed=6000,plate=80x45")
	var asked [][2]int
	r := newWorker(t, e, &jobs.Opts{NextBlank: func(_ context.Context, device string, first, last int) error {
		asked = append(asked, [2]int{first, last})
		return nil
	}}, dev)
	b, _, err := e.orders.QueueBatch(ctx, jobs.BatchRequest{Kind: service.JobEngrave, Jurisdiction: "minneapolis", Year: 2026, Count: 5})
	must(t, err)
	_, err = r.RunOnce(ctx, dev)
	must(t, err)
	got, err := e.store.FindTagBatchByID(ctx, b.ID)
	must(t, err)
	if got.State != service.JobDone || got.Done != 5 {
		t.Fatalf("batch = %+v, want done", got)
	}
	// A 32 mm tag: two fit across 80 mm (5 mm margins, 3 mm gap), one
	// down 45 mm: plates of 2, 2 and 1.
	want := [][2]int{{b.First + 2, b.First + 3}, {b.First + 4, b.First + 4}}
	if fmt.Sprint(asked) != fmt.Sprint(want) {
		t.Errorf("NextBlank asked for %v, want %v", asked, want)
	}
	// The second tag of each full plate lies 35 mm to the right of the
	// first: the laser marks beyond x = 40 mm.
	maxX := 0.0
	for _, l := range sim.Lines() {
		if m := xWord.FindStringSubmatch(l); m != nil && strings.HasPrefix(l, "G1") {
			x, _ := strconv.ParseFloat(m[1], 64)
			maxX = max(maxX, x)
		}
	}
	if maxX < 40 || maxX > 75 {
		t.Errorf("marks reach x = %g mm, want past 40 (second tag) and inside the 80 mm plate", maxX)
	}
}

var xWord = regexp.MustCompile(`X(-?[0-9.]+)`)

// TestBatchPausesForBlank: without anyone to load blanks (the service),
// an engraver batch stops after each blank, saying which tag to load,
// and goes on when resumed.
func TestBatchPausesForBlank(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	_, dev := grblEngraver(t, nil, ",speed=6000")
	r := newWorker(t, e, nil, dev)
	b, _, err := e.orders.QueueBatch(ctx, jobs.BatchRequest{Kind: service.JobEngrave, Jurisdiction: "minneapolis", Year: 2026, Count: 2})
	must(t, err)
	_, err = r.RunOnce(ctx, dev)
	must(t, err)
	got, err := e.store.FindTagBatchByID(ctx, b.ID)
	must(t, err)
	want := fmt.Sprintf("load the blanks for tags %d-%d", b.First+1, b.First+1)
	if got.State != service.JobFailed || got.Done != 1 || !strings.Contains(got.Error, "paused") || !strings.Contains(got.Error, want) {
		t.Fatalf("batch after the first blank = %+v, want paused asking to %s", got, want)
	}
	_, err = e.orders.ResumeBatch(ctx, b.ID)
	must(t, err)
	_, err = r.RunOnce(ctx, dev)
	must(t, err)
	if got, _ = e.store.FindTagBatchByID(ctx, b.ID); got.State != service.JobDone || got.Done != 2 {
		t.Fatalf("resumed batch = %+v, want done", got)
	}
}
