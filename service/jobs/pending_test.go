package jobs_test

import (
	"context"
	"net"
	"testing"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/zplsim"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/jobs"
)

// TestPendingDevice: a printer switched off when chipdesk starts gets
// its jobs once it is on; one that goes away during the day fails the
// job and is opened again for the reprint.
func TestPendingDevice(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	addr := ln.Addr().String()
	ln.Close()
	devs, err := jobs.PendingDevices([]string{"zpl:" + addr + ",name=front"})
	must(t, err)
	dev := devs[0]
	defer dev.Close()
	r := newWorker(t, e, nil, dev)
	j, _, err := e.orders.Queue(ctx, e.licence.ID, service.JobPrint)
	must(t, err)

	if did, err := r.RunOnce(ctx, dev); did || err == nil {
		t.Fatalf("RunOnce with the printer off = %v, %v; want false and the dial error", did, err)
	}
	if got, _ := e.store.FindJobByID(ctx, j.ID); got.State != service.JobQueued {
		t.Fatalf("job with the printer off = %+v, want still queued", got)
	}
	if st := r.Statuses(ctx); len(st) != 1 || st[0].Ready {
		t.Errorf("Statuses with the printer off = %+v, want not ready", st)
	}

	sim, err := zplsim.Listen(&zplsim.Opts{Addr: addr, Status: zplsim.ReadyStatus})
	if err != nil {
		t.Skipf("cannot listen on %s again: %v", addr, err)
	}
	_, err = r.RunOnce(ctx, dev)
	must(t, err)
	if got, _ := e.store.FindJobByID(ctx, j.ID); got.State != service.JobDone || len(sim.Jobs()) != 1 {
		t.Fatalf("job once the printer is on = %+v, %d labels; want done", got, len(sim.Jobs()))
	}

	must(t, sim.Close()) // switched off during the day
	l2 := e.newLicence(t)
	j2, _, err := e.orders.Queue(ctx, l2.ID, service.JobPrint)
	must(t, err)
	_, err = r.RunOnce(ctx, dev)
	must(t, err)
	got, err := e.store.FindJobByID(ctx, j2.ID)
	must(t, err)
	if got.State != service.JobFailed || got.Error == "" {
		t.Fatalf("job on a printer gone away = %+v, want failed with the link error", got)
	}
	sim2, err := zplsim.Listen(&zplsim.Opts{Addr: addr, Status: zplsim.ReadyStatus})
	if err != nil {
		t.Skipf("cannot listen on %s again: %v", addr, err)
	}
	defer sim2.Close()
	_, err = e.orders.Reprint(ctx, j2.ID)
	must(t, err)
	_, err = r.RunOnce(ctx, dev)
	must(t, err)
	got, err = e.store.FindJobByID(ctx, j2.ID)
	must(t, err)
	if got.State != service.JobDone || len(sim2.Jobs()) != 1 || !hasNumber(sim2.Jobs()[0].Data, l2.TagNumber) {
		t.Fatalf("reprint after the printer came back = %+v, %d labels; want done with tag %d", got, len(sim2.Jobs()), l2.TagNumber)
	}
}
