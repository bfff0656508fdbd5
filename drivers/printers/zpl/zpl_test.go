package zpl_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/tcpport"
	"github.com/chipdesk/chipdesk/drivers/printers"
	"github.com/chipdesk/chipdesk/drivers/printers/zpl"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/zplsim"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/tags/zplgf"
)

const label = "^XA^PW406^LL305^CI28^FO20,20^A0N,40,40^FDMinneapolis 2027^FS^FO20,80^BY2^BCN,80,Y,N,N,A^FD2027000123^FS^XZ"

// start runs a fake printer and a driver connected to it over TCP.
func start(t *testing.T, o *zplsim.Opts, do *zpl.Opts) (*zplsim.Printer, *zpl.Dev) {
	t.Helper()
	if o == nil {
		o = &zplsim.Opts{Status: zplsim.ReadyStatus}
	}
	sim, err := zplsim.Listen(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	p, err := tcpport.Dial(context.Background(), sim.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := zpl.New(context.Background(), p, do)
	if err != nil {
		p.Close()
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return sim, d
}

func TestPrintTCP(t *testing.T) {
	t.Parallel()
	sim, d := start(t, nil, nil)
	ctx := context.Background()
	if err := d.Print(ctx, printers.Label{ZPL: []byte(label)}); err != nil {
		t.Fatalf("Print: %v", err)
	}
	if err := d.Print(ctx, printers.Label{ZPL: []byte(label), Copies: 3}); err != nil {
		t.Fatalf("Print 3 copies: %v", err)
	}
	jobs := sim.Jobs()
	if len(jobs) != 2 {
		t.Fatalf("printer got %d jobs, want 2", len(jobs))
	}
	if got := string(jobs[0].Data); got != label {
		t.Errorf("job 1 = %q, want %q", got, label)
	}
	want3 := label[:len(label)-3] + "^PQ3^XZ"
	if got := string(jobs[1].Data); got != want3 {
		t.Errorf("job 2 = %q, want %q", got, want3)
	}
	// one probe, then a check before and after each job
	if got := sim.Queries(); got != 5 {
		t.Errorf("printer answered %d ~HS, want 5", got)
	}
	st, err := d.Status(ctx)
	if err != nil || !st.Ready() {
		t.Errorf("Status() = %+v, %v, want ready", st, err)
	}
}

func TestPrintRefusedOnFault(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		set  func(*zpl.HostStatus)
		want printers.Fault
	}{
		{"paper out", func(h *zpl.HostStatus) { h.PaperOut = true }, printers.FaultPaperOut},
		{"head open", func(h *zpl.HostStatus) { h.HeadOpen = true }, printers.FaultHeadOpen},
		{"paused", func(h *zpl.HostStatus) { h.Paused = true }, printers.FaultPaused},
		{"ribbon out", func(h *zpl.HostStatus) { h.RibbonOut, h.ThermalTransfer = true, true }, printers.FaultRibbonOut},
		{"over temperature", func(h *zpl.HostStatus) { h.OverTemp = true }, printers.FaultHeadOverTemp},
		{"buffer full", func(h *zpl.HostStatus) { h.BufferFull = true }, printers.FaultBufferFull},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sim, d := start(t, nil, nil)
			sim.SetStatus(tt.set)
			err := d.Print(context.Background(), printers.Label{ZPL: []byte(label)})
			if !errors.Is(err, tt.want) {
				t.Fatalf("Print = %v, want %v", err, tt.want)
			}
			if n := len(sim.Jobs()); n != 0 {
				t.Errorf("printer got %d jobs while faulted, want 0", n)
			}
			st, err := d.Status(context.Background())
			if err != nil || st.Faults != tt.want {
				t.Errorf("Status() = %+v, %v, want faults %v", st, err, tt.want)
			}
		})
	}
}

func TestPrintFaultAfterJob(t *testing.T) {
	t.Parallel()
	o := &zplsim.Opts{Status: zplsim.ReadyStatus, OnFormat: func(n int, h *zpl.HostStatus) {
		if n == 2 {
			h.PaperOut = true
		}
	}}
	sim, d := start(t, o, nil)
	ctx := context.Background()
	if err := d.Print(ctx, printers.Label{ZPL: []byte(label)}); err != nil {
		t.Fatalf("first Print: %v", err)
	}
	err := d.Print(ctx, printers.Label{ZPL: []byte(label)})
	if !errors.Is(err, printers.FaultPaperOut) {
		t.Fatalf("second Print = %v, want paper out after the job", err)
	}
	if n := len(sim.Jobs()); n != 2 {
		t.Errorf("printer got %d jobs, want 2", n)
	}
}

func TestNoReply(t *testing.T) {
	t.Parallel()
	sim, err := zplsim.Listen(&zplsim.Opts{Mute: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	p, err := tcpport.Dial(context.Background(), sim.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := zpl.New(context.Background(), p, &zpl.Opts{ReplyTimeout: testtime.Scale(150 * time.Millisecond)}); !errors.Is(err, zpl.ErrNoReply) {
		t.Fatalf("New on a mute printer = %v, want ErrNoReply", err)
	}
	// The probe waits no longer than the caller's context.
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := zpl.New(cctx, p, &zpl.Opts{ReplyTimeout: time.Hour}); !errors.Is(err, context.Canceled) {
		t.Fatalf("New with a cancelled context = %v, want context.Canceled", err)
	}
	// A one-way link: printing works, status is unavailable.
	d, err := zpl.New(context.Background(), p, &zpl.Opts{NoStatus: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Print(context.Background(), printers.Label{ZPL: []byte(label)}); err != nil {
		t.Fatalf("Print without status = %v", err)
	}
	if _, err := d.Status(context.Background()); !errors.Is(err, printers.ErrStatusUnavailable) {
		t.Errorf("Status without status = %v, want ErrStatusUnavailable", err)
	}
	deadline := time.Now().Add(testtime.Scale(2 * time.Second))
	for len(sim.Jobs()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := len(sim.Jobs()); n != 1 {
		t.Errorf("printer got %d jobs, want 1", n)
	}
}

func TestPrintBadInput(t *testing.T) {
	t.Parallel()
	_, d := start(t, nil, nil)
	ctx := context.Background()
	tests := []struct {
		name string
		l    printers.Label
		want error
	}{
		{"nothing", printers.Label{}, printers.ErrUnsupported},
		{"no ^XZ", printers.Label{ZPL: []byte("^XA^FDx^FS")}, zpl.ErrFormat},
		{"no ^XA", printers.Label{ZPL: []byte("^FDx^FS^XZ"), Copies: 2}, zpl.ErrFormat},
	}
	for _, tt := range tests {
		if err := d.Print(ctx, tt.l); !errors.Is(err, tt.want) {
			t.Errorf("%s: Print = %v, want %v", tt.name, err, tt.want)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := d.Print(cctx, printers.Label{ZPL: []byte(label)}); !errors.Is(err, context.Canceled) {
		t.Errorf("Print(cancelled) = %v, want context.Canceled", err)
	}
}

func TestPrintImage(t *testing.T) {
	t.Parallel()
	sim, d := start(t, nil, nil)
	img := image.NewGray(image.Rect(0, 0, 37, 11))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	for i := range 11 {
		img.SetGray(i*3, i, color.Gray{})       // a diagonal
		img.SetGray(36-i, i, color.Gray{Y: 40}) // and a dark grey one
	}
	if err := d.Print(context.Background(), printers.Label{Image: img}); err != nil {
		t.Fatalf("Print(image) = %v", err)
	}
	jobs := sim.Jobs()
	if len(jobs) != 1 {
		t.Fatalf("printer got %d jobs, want 1", len(jobs))
	}
	z := string(jobs[0].Data)
	const head = "^XA^PW37^LL11^FO0,0"
	if !strings.HasPrefix(z, head) || !strings.HasSuffix(z, "^FS^XZ") {
		t.Fatalf("job = %q, want %s^GFA…^FS^XZ", z, head)
	}
	m, err := zplgf.Decode([]byte(z[len(head) : len(z)-3]))
	if err != nil {
		t.Fatalf("zplgf.Decode(%q) = %v", z, err)
	}
	for y := range 11 {
		for x := range 37 {
			want := img.GrayAt(x, y).Y < 128
			if got := m.Bit(x, y); got != want {
				t.Errorf("dot (%d,%d) = %v, want %v", x, y, got, want)
			}
		}
	}
}

// TestHangup: the printer goes away between jobs.
func TestHangup(t *testing.T) {
	t.Parallel()
	sim, d := start(t, nil, &zpl.Opts{ReplyTimeout: testtime.Scale(time.Second)})
	sim.Close()
	err := d.Print(context.Background(), printers.Label{ZPL: []byte(label)})
	if !errors.Is(err, port.ErrHangup) {
		t.Errorf("Print after the printer closed = %v, want ErrHangup", err)
	}
}

// TestSplitReply: a reply that arrives byte by byte is still read whole.
func TestSplitReply(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		buf := make([]byte, 3)
		for {
			if _, err := c.Read(buf); err != nil {
				return
			}
			for _, b := range zplsim.ReadyStatus.Encode() {
				c.Write([]byte{b})
			}
		}
	}()
	p, err := tcpport.Dial(context.Background(), ln.Addr().String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := zpl.New(context.Background(), p, nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	defer d.Close()
	h, err := d.HostStatus(context.Background())
	if err != nil || !bytes.Equal(h.Encode(), zplsim.ReadyStatus.Encode()) {
		t.Errorf("HostStatus() = %+v, %v, want %+v", h, err, zplsim.ReadyStatus)
	}
}

func BenchmarkPrintTCP(b *testing.B) {
	sim, err := zplsim.Listen(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer sim.Close()
	p, err := tcpport.Dial(context.Background(), sim.Addr(), nil)
	if err != nil {
		b.Fatal(err)
	}
	d, err := zpl.New(context.Background(), p, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	l := printers.Label{ZPL: []byte(label)}
	b.SetBytes(int64(len(label)))
	b.ResetTimer()
	for b.Loop() {
		if err := d.Print(context.Background(), l); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDeviceSettings: darkness (~SD, before each format), print speed
// (^PR, inside it) and media calibration (~JC, once when opened) come
// from the device's options; none is sent when not set.
func TestDeviceSettings(t *testing.T) {
	t.Parallel()
	sim, d := start(t, nil, &zpl.Opts{Darkness: 22, Speed: 4, Calibrate: true})
	if err := d.Print(context.Background(), printers.Label{ZPL: []byte(label)}); err != nil {
		t.Fatal(err)
	}
	jobs := sim.Jobs()
	if len(jobs) != 1 || !strings.HasPrefix(string(jobs[0].Data), "^XA^PR4^") {
		t.Fatalf("formats = %+v, want ^PR4 right after ^XA", jobs)
	}
	if sim.Darkness() != 22 || sim.Calibrations() != 1 {
		t.Errorf("printer darkness %d, %d calibrations; want 22, 1", sim.Darkness(), sim.Calibrations())
	}
	sim2, d2 := start(t, nil, nil)
	if err := d2.Print(context.Background(), printers.Label{ZPL: []byte(label)}); err != nil {
		t.Fatal(err)
	}
	if j := sim2.Jobs(); len(j) != 1 || string(j[0].Data) != label || sim2.Darkness() != 0 || sim2.Calibrations() != 0 {
		t.Errorf("without options: %+v, darkness %d, %d calibrations; want the label as given, nothing else", j, sim2.Darkness(), sim2.Calibrations())
	}
	for _, o := range []zpl.Opts{{Darkness: 31}, {Speed: 1}, {Speed: 15}, {Dpmm: 10}} {
		if err := o.Check(); err == nil {
			t.Errorf("Opts%+v.Check() = nil, want an error", o)
		}
	}
}

// fakeArt is an Artwork that records the resolution it was asked for.
type fakeArt struct{ dpmm int }

func (a *fakeArt) ZPL(dpmm int) ([]byte, error) { a.dpmm = dpmm; return []byte(label), nil }
func (a *fakeArt) Raster(float64, float64) (image.Image, error) {
	return nil, errors.New("a ZPL printer asks for ZPL")
}

// TestArtAtDeviceResolution: a label's Art is drawn at the device's own
// resolution (8 dots/mm unless set), not one chosen above the driver.
func TestArtAtDeviceResolution(t *testing.T) {
	t.Parallel()
	for _, dpmm := range []int{0, 12} {
		_, d := start(t, nil, &zpl.Opts{Dpmm: dpmm})
		a := &fakeArt{}
		if err := d.Print(context.Background(), printers.Label{Art: a}); err != nil {
			t.Fatal(err)
		}
		if want := max(dpmm, 8); a.dpmm != want || d.Dpmm() != want {
			t.Errorf("Opts.Dpmm %d: art drawn at %d dots/mm, Dpmm() %d; want %d", dpmm, a.dpmm, d.Dpmm(), want)
		}
	}
}
