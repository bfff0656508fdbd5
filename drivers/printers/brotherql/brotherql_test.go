package brotherql_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"io"
	"net"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/tcpport"
	"github.com/chipdesk/chipdesk/drivers/port/usbport"
	"github.com/chipdesk/chipdesk/drivers/port/usbport/usbporttest"
	"github.com/chipdesk/chipdesk/drivers/printers"
	"github.com/chipdesk/chipdesk/drivers/printers/brotherql"
	"github.com/chipdesk/chipdesk/internal/testtime"
)

// tagImage is a 306 × 120 picture for 29 mm media: a frame and a
// diagonal, so mirroring and placement show.
func tagImage() *image.Gray {
	img := image.NewGray(image.Rect(0, 0, 306, 120))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	for x := range 306 {
		img.SetGray(x, 0, color.Gray{})
		img.SetGray(x, 119, color.Gray{})
	}
	for y := range 120 {
		img.SetGray(0, y, color.Gray{})
		img.SetGray(y*2, y, color.Gray{})
	}
	return img
}

// usbQL puts a fake QL on a fake USB bus and opens it through usbport's
// printer-class opener, as the service will.
func usbQL(t *testing.T, model, media string) (*fakeQL, *usbporttest.Device, *usbport.Port) {
	t.Helper()
	mo, err := brotherql.LookupModel(model)
	if err != nil {
		t.Fatal(err)
	}
	me, err := brotherql.LookupMedia(media)
	if err != nil {
		t.Fatal(err)
	}
	d := usbporttest.Printer(brotherql.VendorID, mo.ProductID, "F1")
	f := newFakeQL(mo, me, func(b []byte) { d.Feed(0x82, b) })
	d.OnWrite = func(addr uint8, p []byte) { f.write(p) }
	b := usbporttest.NewBus(d)
	p, err := usbport.OpenPrinter(context.Background(), b, usbport.Match{VID: brotherql.VendorID, PID: mo.ProductID}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return f, d, p
}

func TestPrintUSB(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, model, media string
		copies             int
	}{
		{"QL-700 29 mm continuous, no compression", "QL-700", "29", 1},
		{"QL-820NWB 29x90 die-cut, PackBits", "QL-820NWB", "29x90", 1},
		{"QL-720NW two copies", "QL-720NW", "29", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, _, p := usbQL(t, tt.model, tt.media)
			d, err := brotherql.New(context.Background(), p, &brotherql.Opts{Model: tt.model, Media: tt.media})
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			img := tagImage()
			if err := d.Print(context.Background(), printers.Label{Image: img, Copies: tt.copies}); err != nil {
				t.Fatalf("Print: %v", err)
			}
			jobs := f.Jobs()
			if len(jobs) != 1 {
				t.Fatalf("printer got %d jobs, want 1", len(jobs))
			}
			mo := d.Model()
			j, err := brotherql.ParseJob(append(make([]byte, 200), jobs[0]...), mo.BytesPerLine)
			if err != nil {
				t.Fatalf("ParseJob = %v", err)
			}
			if len(j.Pages) != tt.copies {
				t.Fatalf("job has %d pages, want %d", len(j.Pages), tt.copies)
			}
			me, _ := brotherql.LookupMedia(tt.media)
			got := brotherql.Raster{Lines: j.Pages[0].Lines}.Image(mo, me)
			for y := range 120 {
				for x := range 306 {
					if want := img.GrayAt(x, y).Y < 128; (got.GrayAt(x, y).Y == 0) != want {
						t.Fatalf("dot (%d,%d) black = %v, want %v", x, y, !want, want)
					}
				}
			}
			st, err := d.Status(context.Background())
			if err != nil || !st.Ready() || st.Media != me.String() {
				t.Errorf("Status() = %+v, %v, want ready with %s", st, err, me)
			}
		})
	}
}

func TestPrintRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		set  func(*brotherql.Status)
		want printers.Fault
	}{
		{"cover open", func(s *brotherql.Status) { s.Err2 = 0x10 }, printers.FaultHeadOpen},
		{"no media", func(s *brotherql.Status) { s.Err1 = 0x01; s.MediaType, s.MediaWidth = 0, 0 }, printers.FaultPaperOut},
		{"cutter jam", func(s *brotherql.Status) { s.Err1 = 0x04 }, printers.FaultCutterJam},
		{"wrong roll loaded", func(s *brotherql.Status) { s.MediaWidth = 62 }, printers.FaultMediaWrong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, _, p := usbQL(t, "QL-720NW", "29")
			d, err := brotherql.New(context.Background(), p, &brotherql.Opts{Model: "QL-720NW", Media: "29"})
			if err != nil {
				t.Fatal(err)
			}
			f.set(tt.set)
			err = d.Print(context.Background(), printers.Label{Image: tagImage()})
			if !errors.Is(err, tt.want) {
				t.Fatalf("Print = %v, want %v", err, tt.want)
			}
			if n := len(f.Jobs()); n != 0 {
				t.Errorf("printer got %d jobs, want none", n)
			}
		})
	}
}

func TestPrintFailsAtPrinter(t *testing.T) {
	t.Parallel()
	f, _, p := usbQL(t, "QL-820NWB", "29x90")
	d, err := brotherql.New(context.Background(), p, &brotherql.Opts{Model: "QL-820NWB"}) // media: whatever is loaded
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.failPrint = &brotherql.Status{Model: 0x41, Err1: 0x02} // end of media during the job
	f.mu.Unlock()
	err = d.Print(context.Background(), printers.Label{Image: tagImage()})
	if !errors.Is(err, printers.FaultPaperOut) {
		t.Errorf("Print = %v, want paper out from the printer's error status", err)
	}
}

func TestNewErrors(t *testing.T) {
	t.Parallel()
	_, _, p := usbQL(t, "QL-700", "62")
	if _, err := brotherql.New(context.Background(), p, &brotherql.Opts{Model: "QL-570"}); !errors.Is(err, brotherql.ErrModel) {
		t.Errorf("New(QL-570) on a QL-700 = %v, want ErrModel", err)
	}
	if _, err := brotherql.New(context.Background(), p, &brotherql.Opts{Model: "QL-700", Media: "102"}); !errors.Is(err, brotherql.ErrMedia) {
		t.Errorf("New(QL-700, 102 mm) = %v, want ErrMedia", err)
	}
	d, err := brotherql.New(context.Background(), p, nil)
	if err != nil || d.Model().Name != "QL-700" {
		t.Errorf("New(nil opts) on a QL-700 = %v, %v, want the model from the status", d, err)
	}
	if _, err := brotherql.New(context.Background(), p, &brotherql.Opts{Network: true, Media: "62"}); !errors.Is(err, brotherql.ErrModel) {
		t.Errorf("New(network, no model) = %v, want ErrModel", err)
	}
	if _, err := brotherql.New(context.Background(), p, &brotherql.Opts{Model: "QL-700", Network: true}); !errors.Is(err, brotherql.ErrMedia) {
		t.Errorf("New(network, no media) = %v, want ErrMedia", err)
	}
	// QL-500 and QL-550 share model code 0x4F: the model must be named.
	_, _, p5 := usbQL(t, "QL-550", "62")
	if _, err := brotherql.New(context.Background(), p5, nil); !errors.Is(err, brotherql.ErrModel) {
		t.Errorf("New(nil opts) on a QL-550 = %v, want ErrModel (code shared with QL-500)", err)
	}
	// A printer that never answers.
	mute := usbporttest.Printer(brotherql.VendorID, 0x2042, "M")
	b := usbporttest.NewBus(mute)
	mp, err := usbport.OpenPrinter(context.Background(), b, usbport.Match{VID: brotherql.VendorID}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mp.Close()
	if _, err := brotherql.New(context.Background(), mp, &brotherql.Opts{Model: "QL-700", ReplyTimeout: testtime.Scale(100 * time.Millisecond)}); !errors.Is(err, brotherql.ErrNoReply) {
		t.Errorf("New on a mute printer = %v, want ErrNoReply", err)
	}
	// The status request waits no longer than the caller's context.
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := brotherql.New(cctx, mp, &brotherql.Opts{Model: "QL-700", ReplyTimeout: time.Hour}); !errors.Is(err, context.Canceled) {
		t.Errorf("New with a cancelled context = %v, want context.Canceled", err)
	}
}

// TestPrintNetwork: over TCP 9100 the job goes out whole and nothing
// comes back; Status says so.
func TestPrintNetwork(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan []byte, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		b, _ := io.ReadAll(c)
		got <- b
	}()
	p, err := tcpport.Dial(context.Background(), ln.Addr().String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := brotherql.New(context.Background(), p, &brotherql.Opts{Model: "QL-820NWB", Media: "62", Network: true})
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewGray(image.Rect(0, 0, 696, 300))
	if err := d.Print(context.Background(), printers.Label{Image: img}); err != nil {
		t.Fatalf("Print = %v", err)
	}
	if _, err := d.Status(context.Background()); !errors.Is(err, printers.ErrStatusUnavailable) {
		t.Errorf("Status over the network = %v, want ErrStatusUnavailable", err)
	}
	d.Close()
	mo, _ := brotherql.LookupModel("QL-820NWB")
	me, _ := brotherql.LookupMedia("62")
	r, err := brotherql.Rasterize(img, mo, me, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := brotherql.EncodeJob(mo, me, []brotherql.Raster{r}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b := <-got; !bytes.Equal(b, want) {
		t.Errorf("printer got %d bytes, want the %d-byte job", len(b), len(want))
	}
}

// TestUnplugged: a printer pulled out between jobs gives a hang-up, not
// a hang.
func TestUnplugged(t *testing.T) {
	t.Parallel()
	mo, _ := brotherql.LookupModel("QL-700")
	me, _ := brotherql.LookupMedia("62")
	d := usbporttest.Printer(brotherql.VendorID, mo.ProductID, "U")
	f := newFakeQL(mo, me, func(b []byte) { d.Feed(0x82, b) })
	d.OnWrite = func(addr uint8, p []byte) { f.write(p) }
	bus := usbporttest.NewBus(d)
	p, err := usbport.OpenPrinter(context.Background(), bus, usbport.Match{VID: brotherql.VendorID}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	dev, err := brotherql.New(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	bus.Unplug(d)
	if err := dev.Print(context.Background(), printers.Label{Image: tagImage()}); !errors.Is(err, port.ErrHangup) {
		t.Errorf("Print to an unplugged printer = %v, want ErrHangup", err)
	}
}

func TestPrintNoImage(t *testing.T) {
	t.Parallel()
	_, _, p := usbQL(t, "QL-700", "62")
	d, err := brotherql.New(context.Background(), p, &brotherql.Opts{Model: "QL-700"})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Print(context.Background(), printers.Label{ZPL: []byte("^XA^XZ")}); !errors.Is(err, printers.ErrUnsupported) {
		t.Errorf("Print(ZPL only) = %v, want ErrUnsupported", err)
	}
}

// artwork is a printers.Artwork that records what it was asked for and
// draws a frame one dot wide round the label.
type artwork struct{ dpmm, width float64 }

func (a *artwork) ZPL(int) ([]byte, error) {
	return nil, errors.New("a raster printer asks for a raster")
}

func (a *artwork) Raster(dpmm, widthMM float64) (image.Image, error) {
	a.dpmm, a.width = dpmm, widthMM
	w := int(widthMM*dpmm + 0.5)
	img := image.NewGray(image.Rect(0, 0, w, 100))
	for y := range 100 {
		for x := range w {
			c := uint8(255)
			if x == 0 || y == 0 || x == w-1 || y == 99 {
				c = 0
			}
			img.SetGray(x, y, color.Gray{Y: c})
		}
	}
	return img, nil
}

// TestPrintArtwork: a label's Art is laid out by the artwork for the
// loaded tape's printable width at the head's 300 dpi, and printed dot
// for dot (no scaling in Rasterize).
func TestPrintArtwork(t *testing.T) {
	t.Parallel()
	for _, media := range []string{"62", "29"} {
		f, _, p := usbQL(t, "QL-820NWB", media)
		d, err := brotherql.New(context.Background(), p, &brotherql.Opts{Model: "QL-820NWB", Media: media})
		if err != nil {
			t.Fatal(err)
		}
		a := &artwork{}
		if err := d.Print(context.Background(), printers.Label{Art: a}); err != nil {
			t.Fatalf("Print: %v", err)
		}
		me, _ := brotherql.LookupMedia(media)
		if a.dpmm != brotherql.HeadDpmm || int(a.width*a.dpmm+0.5) != me.Dots {
			t.Errorf("media %s: art asked at %g dots/mm for %g mm, want the head's %g for %d dots", media, a.dpmm, a.width, brotherql.HeadDpmm, me.Dots)
		}
		mo := d.Model()
		j, err := brotherql.ParseJob(append(make([]byte, 200), f.Jobs()[0]...), mo.BytesPerLine)
		if err != nil || len(j.Pages) != 1 {
			t.Fatalf("ParseJob = %v, %v", j, err)
		}
		got := brotherql.Raster{Lines: j.Pages[0].Lines}.Image(mo, me)
		// (the model's minimum length may pad the page below the label)
		if len(j.Pages[0].Lines) < 100 || got.GrayAt(me.Dots-1, 50).Y != 0 || got.GrayAt(me.Dots/2, 99).Y != 0 || got.GrayAt(me.Dots/2, 50).Y == 0 {
			t.Errorf("media %s: %d lines; right edge and bottom frame black %v %v, middle white %v; want the frame dot for dot",
				media, len(j.Pages[0].Lines), got.GrayAt(me.Dots-1, 50).Y == 0, got.GrayAt(me.Dots/2, 99).Y == 0, got.GrayAt(me.Dots/2, 50).Y != 0)
		}
	}
}
