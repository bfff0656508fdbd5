package jobs_test

import (
	"context"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/jobs"
)

// BenchmarkBatchTagZPL measures one pre-numbered tag of a batch on a ZPL
// printer: rendering the label, ~HS before and after, sending it over
// loopback TCP, and storing the progress.
func BenchmarkBatchTagZPL(b *testing.B) {
	e := newEnv(b)
	ctx := context.Background()
	_, dev := zplPrinter(b, nil)
	r, err := jobs.New([]*jobs.Device{dev}, &jobs.Opts{Orders: e.orders})
	if err != nil {
		b.Fatal(err)
	}
	bt, _, err := e.orders.QueueBatch(ctx, jobs.BatchRequest{Kind: service.JobPrint, Jurisdiction: "minneapolis", Year: 2026, Count: b.N})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	if _, err := r.RunOnce(ctx, dev); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	got, err := e.store.FindTagBatchByID(ctx, bt.ID)
	if err != nil || got.State != service.JobDone || got.Done != b.N {
		b.Fatalf("batch = %+v, %v; want %d done", got, err, b.N)
	}
}
