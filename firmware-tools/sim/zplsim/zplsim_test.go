package zplsim_test

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/printers/zpl"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/zplsim"
	"github.com/chipdesk/chipdesk/internal/testtime"
)

func TestFormatsAndStatus(t *testing.T) {
	t.Parallel()
	sim, err := zplsim.Listen(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	c, err := net.Dial("tcp", sim.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// A format split across writes, with ~HS in its middle (tilde
	// commands act at once) and another tilde command kept as data;
	// bytes outside ^XA … ^XZ are not a job.
	for _, part := range []string{"junk^X", "A^FO1,1^FDa", "~HS", "b^FS~JA^X", "Z^XA^XZ"} {
		if _, err := io.WriteString(c, part); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond)
	}
	reply := make([]byte, len(zplsim.ReadyStatus.Encode()))
	c.SetReadDeadline(time.Now().Add(testtime.Scale(2 * time.Second)))
	if _, err := io.ReadFull(c, reply); err != nil {
		t.Fatal(err)
	}
	if h, err := zpl.ParseHostStatus(reply); err != nil || h != zplsim.ReadyStatus {
		t.Errorf("~HS reply = %+v, %v, want ReadyStatus", h, err)
	}
	deadline := time.Now().Add(testtime.Scale(2 * time.Second))
	for len(sim.Jobs()) < 2 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	jobs := sim.Jobs()
	want := []string{"^XA^FO1,1^FDab^FS~JA^XZ", "^XA^XZ"}
	if len(jobs) != len(want) {
		t.Fatalf("got %d jobs, want %d", len(jobs), len(want))
	}
	for i, j := range jobs {
		if string(j.Data) != want[i] || j.Conn != 1 {
			t.Errorf("job %d = %q on connection %d, want %q on 1", i+1, j.Data, j.Conn, want[i])
		}
	}
	if sim.Queries() != 1 {
		t.Errorf("Queries() = %d, want 1", sim.Queries())
	}
}

func TestFaultsAndMute(t *testing.T) {
	t.Parallel()
	var rw bytes.Buffer
	sim := zplsim.New(&zplsim.Opts{Status: zplsim.ReadyStatus, OnFormat: func(n int, h *zpl.HostStatus) {
		h.PaperOut = true
	}})
	in := bytes.NewBufferString("^XA^XZ~HS")
	if err := sim.Serve(t.Context(), struct {
		io.Reader
		io.Writer
	}{in, &rw}); err != nil {
		t.Fatal(err)
	}
	h, err := zpl.ParseHostStatus(rw.Bytes())
	if err != nil || !h.PaperOut {
		t.Errorf("status after the format = %+v, %v, want paper out", h, err)
	}
	mute := zplsim.New(&zplsim.Opts{Mute: true})
	rw.Reset()
	if err := mute.Serve(t.Context(), struct {
		io.Reader
		io.Writer
	}{bytes.NewBufferString("~HS~HS"), &rw}); err != nil {
		t.Fatal(err)
	}
	if rw.Len() != 0 || mute.Queries() != 0 {
		t.Errorf("mute printer answered %q", rw.Bytes())
	}
}
