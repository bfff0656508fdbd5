package catalog

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/drivers/readers/hidwedge"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/reader/iso11784"
)

// randomChip returns a random valid ISO 11784 animal chip.
func randomChip(rng *rand.Rand) chipid.ID {
	c, err := iso11784.New(uint16(rng.IntN(1000)), rng.Uint64N(iso11784.MaxNational+1), true)
	if err != nil {
		panic(err)
	}
	return chipid.FromISO(c)
}

func TestLookup(t *testing.T) {
	t.Parallel()
	for _, n := range Names() {
		if p, err := Lookup(n); err != nil || p.Name != n || p.New == nil || p.Encode == nil || p.Split == nil || p.Decode == nil {
			t.Errorf("Lookup(%q) = %+v, %v", n, p.Name, err)
		}
		if p, _ := Lookup(n); (p.Query == nil) != (p.Answers == nil) {
			t.Errorf("%s: Query and Answers must come together", n)
		}
	}
	if _, err := Lookup("nope"); err == nil {
		t.Error("Lookup(nope) = nil error")
	}
}

// evdev is looked up by name like the serial protocols, opens its own
// kind of port, and refuses a layout it does not know.
func TestEvdev(t *testing.T) {
	t.Parallel()
	p, err := Lookup(EvdevName)
	if err != nil || p.Name != EvdevName || p.New == nil || p.OpenPort == nil || p.Split == nil {
		t.Fatalf("Lookup(%s) = %+v, %v", EvdevName, p.Name, err)
	}
	if _, err := Evdev(&hidwedge.Opts{Layout: "fr"}); !errors.Is(err, hidwedge.ErrLayout) {
		t.Errorf("Evdev(layout fr) = %v, want ErrLayout", err)
	}
	// Each reader opened gets a decoder of its own: Shift held on one
	// scanner never shifts the digits of another.
	host1, dev1 := porttest.Pipe("a")
	host2, dev2 := porttest.Pipe("b")
	r1, err := p.New(host1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	r2, err := p.New(host2, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	shift := hidwedge.AppendEvent(nil, hidwedge.Event{Type: hidwedge.EvKey, Code: 42, Value: hidwedge.KeyDown})
	if _, err := dev1.Write(shift); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(context.Background(), 3*readers.PollInterval)
	defer cancel()
	if _, err := r1.Next(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next on a held Shift = %v, want the deadline", err)
	}
	events, _ := hidwedge.EncodeEvents("985121004515220\n", nil)
	if _, err := dev2.Write(events); err != nil {
		t.Fatal(err)
	}
	ctx, cancel2 := context.WithTimeout(context.Background(), testtime.Scale(5*time.Second))
	defer cancel2()
	if rd, err := r2.Next(ctx); err != nil || rd.ID.Code != "985121004515220" {
		t.Errorf("Next on the other scanner = %v, %v, want the chip", rd.ID, err)
	}
}

// Each protocol's encoder and decoder agree: encode, frame and decode
// return the chip.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range Protocols() {
		t.Run(p.Name, func(t *testing.T) {
			for range 200 {
				id := randomChip(rng)
				checkRoundTrip(t, p, id)
			}
		})
	}
}

func checkRoundTrip(t *testing.T, p Protocol, id chipid.ID) {
	t.Helper()
	b, err := p.Encode(id)
	if err != nil {
		t.Fatalf("%s: Encode(%s) = %v", p.Name, id.Code, err)
	}
	sc := readers.NewScanner(p.Split, 0)
	sc.Write(b)
	f := sc.Frame()
	if !bytes.Equal(f, b) {
		t.Fatalf("%s: Split(%q) = %q, want the whole frame (%v)", p.Name, b, f, sc.LastError())
	}
	r, ok, err := p.Decode(f)
	if err != nil || !ok || r.ID.Code != id.Code {
		t.Fatalf("%s: Decode(%q) = %s, %v, %v, want %s", p.Name, f, r.ID.Code, ok, err, id.Code)
	}
}

func FuzzRoundTrip(f *testing.F) {
	f.Add(uint16(982), uint64(123456789), true)
	f.Add(uint16(0), uint64(0), false)
	f.Add(uint16(999), uint64(999999999999), true)
	f.Fuzz(func(t *testing.T, country uint16, national uint64, animal bool) {
		c, err := iso11784.New(country, national, animal)
		if err != nil || national > 999_999_999_999 {
			return
		}
		for _, p := range Protocols() {
			checkRoundTrip(t, p, chipid.FromISO(c))
		}
	})
}

// Any bytes through every protocol's framing and decoder: no panic, and
// a frame that decodes to a read encodes back to a frame that decodes
// to the same chip.
func FuzzDecode(f *testing.F) {
	for _, p := range Protocols() {
		b, _ := p.Encode(randomChip(rand.New(rand.NewPCG(3, 4))))
		f.Add(b)
	}
	f.Add([]byte("LA 00000 0 982 000001088420\r\n"))
	f.Add([]byte("999_000000001007_1_0_AEC4_000000\r"))
	f.Add([]byte("\x02K010101000133F2858997D3A4F00001______________46F6\x03"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, p := range Protocols() {
			sc := readers.NewScanner(p.Split, 0)
			sc.Write(b)
			for fr := sc.Frame(); fr != nil; fr = sc.Frame() {
				r, ok, err := p.Decode(fr)
				if err != nil || !ok {
					continue
				}
				checkRoundTrip(t, p, r.ID)
			}
		}
	})
}

// noisyStream interleaves frames with random noise: size bytes of noise
// in all, cut at random points between n frames of random chips.
func noisyStream(p Protocol, rng *rand.Rand, size, n int) ([]byte, []string) {
	// Noise chunks of random length with the right mean go between the
	// frames.
	out := make([]byte, 0, size+n*40)
	want := make([]string, 0, n)
	mean := size / (n + 1)
	for i := 0; i < n; i++ {
		k := rng.IntN(2 * mean)
		for range k {
			out = append(out, byte(rng.Uint32()))
		}
		id := randomChip(rng)
		b, err := p.Encode(id)
		if err != nil {
			panic(err)
		}
		out = append(out, b...)
		want = append(want, id.Code)
	}
	return out, want
}

// 10 MB of random bytes with 10,000 frames between them, through each
// driver on an in-memory port: every frame is read, in order, and
// nothing else.
func TestNoise(t *testing.T) {
	t.Parallel()
	size, n := 10<<20, 10000
	if testing.Short() {
		size, n = 1<<20, 1000
	}
	for i, p := range Protocols() {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(i), 42))
			stream, want := noisyStream(p, rng, size, n)
			host, dev := porttest.Pipe(p.Name)
			r, err := p.New(host, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			go func() {
				for b := stream; len(b) > 0; {
					k := min(len(b), 4096)
					dev.Write(b[:k])
					b = b[k:]
				}
				dev.Close()
			}()
			ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(60*time.Second))
			defer cancel()
			var got []string
			for {
				rd, err := r.Next(ctx)
				if errors.Is(err, port.ErrHangup) {
					break
				}
				if err != nil {
					t.Fatalf("Next() = %v after %d reads", err, len(got))
				}
				got = append(got, rd.ID.Code)
			}
			if len(got) != len(want) {
				t.Errorf("%d reads, want %d; stats %v", len(got), len(want), r.Stats())
			}
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("read %d = %s, want %s", i, got[i], want[i])
				}
			}
			st := r.Stats()
			if st.Reads != uint64(n) || st.Garbage == 0 {
				t.Errorf("Stats() = %v", st)
			}
			t.Logf("%s: %v", p.Name, st)
		})
	}
}

// BenchmarkParse measures framing and decoding of a stream of frames
// (no I/O); frames/s is the figure of interest.
func BenchmarkParse(b *testing.B) {
	for _, p := range Protocols() {
		b.Run(p.Name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(5, 6))
			var stream []byte
			const n = 1000
			for range n {
				f, _ := p.Encode(randomChip(rng))
				stream = append(stream, f...)
			}
			b.SetBytes(int64(len(stream)))
			b.ResetTimer()
			frames := 0
			for b.Loop() {
				sc := readers.NewScanner(p.Split, 0)
				sc.Write(stream)
				for f := sc.Frame(); f != nil; f = sc.Frame() {
					if _, ok, err := p.Decode(f); ok && err == nil {
						frames++
					}
				}
			}
			b.ReportMetric(float64(frames)/b.Elapsed().Seconds(), "frames/s")
		})
	}
}
