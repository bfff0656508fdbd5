package avid

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/drivers/readers/protocoltest"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// session reads testdata/session.txt: the answers the reader gives to
// each trigger.
func session(t testing.TB) [][]byte {
	t.Helper()
	f, err := os.Open("testdata/session.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "> "):
			out = append(out, nil)
		case strings.HasPrefix(l, "< "):
			out[len(out)-1] = append(out[len(out)-1], l[2:]+"\r\n"...)
		}
	}
	return out
}

// The reader answers each space with the next exchange of the session
// (a noisy byte before some); the driver triggers, skips Looking and No
// ID Found, and reads each number in its kind.
func TestSession(t *testing.T) {
	t.Parallel()
	host, dev := porttest.Pipe("avid")
	answers := session(t)
	go func() {
		buf := make([]byte, 16)
		for i := 0; i < len(answers); {
			n, err := dev.Read(buf)
			if err != nil {
				return
			}
			for range bytes.Count(buf[:n], []byte{Trigger}) {
				if i < len(answers) {
					dev.Write(append([]byte{0xFF}, answers[i]...))
					i++
				}
			}
		}
	}()
	d, err := New(host, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(5e9))
	defer cancel()
	for _, want := range []struct {
		kind chipid.Kind
		code string
		p    reader.Air
	}{
		{chipid.KindAVID, "012345678", reader.AirAVID},
		{chipid.KindISO, "985121004515220", reader.AirISO},
		{chipid.KindFECAVA, "0000013531", reader.AirFDXA},
	} {
		r, err := d.Next(ctx)
		if err != nil {
			t.Fatalf("Next() = %v; %v", err, d.Stats())
		}
		if r.ID.Kind != want.kind || r.ID.Code != want.code || r.Protocol != want.p || r.Format != "avid" {
			t.Errorf("Next() = %+v, want %s %s", r, want.kind, want.code)
		}
	}
	if st := d.Stats(); st.Other != 5 || st.Bad != 0 || st.Garbage != 4 {
		t.Errorf("Stats() = %v, want 5 other (4 Looking, 1 No ID Found), 4 garbage (one noise byte an answer)", st)
	}
	if got := host.Mode(); got != Protocol.Mode {
		t.Errorf("mode %v, want %v", got, Protocol.Mode)
	}
}

// A reader that never answers is asked again; the driver ends with its
// context.
func TestRetrigger(t *testing.T) {
	t.Parallel()
	host, dev := porttest.Pipe("avid")
	defer dev.Close()
	p := Protocol
	p.TriggerEvery = testtime.Scale(20e6)
	d, err := readers.Open(host, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Stream notices a deadline at its poll interval (100 ms): a second
	// gives room for several.
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(1e9))
	defer cancel()
	got := make(chan int)
	go func() {
		buf := make([]byte, 64)
		n := 0
		for n < 3 {
			k, err := dev.Read(buf)
			if err != nil {
				break
			}
			n += bytes.Count(buf[:k], []byte{Trigger})
		}
		got <- n
	}()
	if _, err := d.Next(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Next() = %v, want the context's deadline", err)
	}
	d.Close()
	if n := <-got; n < 3 {
		t.Errorf("%d triggers sent, want at least 3", n)
	}
}

func FuzzReadFrame(f *testing.F) {
	for _, a := range session(f) {
		for _, l := range bytes.SplitAfter(a, []byte("\r\n")) {
			f.Add(l)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, ok, err := ReadFrame(b)
		if err != nil || !ok {
			return
		}
		enc, err := Encode(r.ID)
		if err != nil {
			t.Fatalf("Encode(%+v) = %v", r.ID, err)
		}
		back, ok, err := ReadFrame(enc)
		if err != nil || !ok || back.ID.Code != r.ID.Code || back.ID.Kind != r.ID.Kind {
			t.Fatalf("ReadFrame(Encode(%+v)) = %+v, %v, %v", r.ID, back, ok, err)
		}
	})
}

func FuzzSplit(f *testing.F) {
	for _, a := range session(f) {
		f.Add(a)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		protocoltest.SplitDecodes(t, Split, b, func(fr []byte) (reader.Read, error) {
			r, _, err := ReadFrame(fr)
			return r, err
		})
	})
}
