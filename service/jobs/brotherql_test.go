package jobs_test

import (
	"context"
	"io"
	"math/bits"
	"net"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/printers/brotherql"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/jobs"
)

// TestBrotherQLNetwork prints a licence tag on a Brother QL over the
// network (port 9100, no status back) and reads the raster job the
// printer would get: one page of 62 mm tape with the tag's marks.
func TestBrotherQLNetwork(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer ln.Close()
	got := make(chan []byte, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(c)
		c.Close()
		got <- b
	}()
	sp, err := jobs.ParseSpec("brotherql:" + ln.Addr().String() + ",model=QL-820NWB,media=62")
	must(t, err)
	dev, err := jobs.Open(ctx, sp)
	must(t, err)
	r := newWorker(t, e, nil, dev)
	j, _, err := e.orders.Queue(ctx, e.licence.ID, service.JobPrint)
	must(t, err)
	_, err = r.RunOnce(ctx, dev)
	must(t, err)
	must(t, dev.Close())
	j, err = e.store.FindJobByID(ctx, j.ID)
	must(t, err)
	// The network protocol gives no status back: the job is sent, not
	// confirmed, and says why, for the counter to check the label.
	if j.State != service.JobUnconfirmed || !strings.Contains(j.Error, "not confirmed") {
		t.Fatalf("job = %+v, want unconfirmed, saying the link gives no status", j)
	}
	mo, err := brotherql.LookupModel("QL-820NWB")
	must(t, err)
	pj, err := brotherql.ParseJob(<-got, mo.BytesPerLine)
	must(t, err)
	if len(pj.Pages) != 1 {
		t.Fatalf("job has %d pages, want 1", len(pj.Pages))
	}
	black := 0
	for _, l := range pj.Pages[0].Lines {
		for _, b := range l {
			black += bits.OnesCount8(b)
		}
	}
	// The marks (text and DataMatrix) cover a part of the tag, not all of
	// it: a label black all over would mean the metal was printed.
	total := len(pj.Pages[0].Lines) * mo.BytesPerLine * 8
	if black < total/100 || black > total/3 {
		t.Errorf("label has %d of %d dots black, want the tag's marks only", black, total)
	}
}
