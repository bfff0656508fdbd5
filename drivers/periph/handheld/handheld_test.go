package handheld_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"github.com/chipdesk/chipdesk/drivers/periph/feedback"
	"github.com/chipdesk/chipdesk/drivers/periph/handheld"
	"github.com/chipdesk/chipdesk/drivers/periph/uartport"
	"github.com/chipdesk/chipdesk/drivers/readers/wl134"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/reader/readertest"
)

// recorder is the feedback's sleep: it notes the pattern played by the
// levels of the pins at each step.
type recorder struct {
	buzzer, led gpiotest.Pin
	steps       []string
}

func (r *recorder) sleep(ctx context.Context, d time.Duration) error {
	b, l := 0, 0
	if r.buzzer.Read() {
		b = 1
	}
	if r.led.Read() {
		l = 1
	}
	r.steps = append(r.steps, fmt.Sprintf("%d%d/%v", b, l, d))
	return ctx.Err()
}

// pattern renders a pattern as recorder steps.
func pattern(p feedback.Pattern) []string {
	var out []string
	for _, s := range p {
		b, l := 0, 0
		if s.Buzzer {
			b = 1
		}
		if s.LED {
			l = 1
		}
		out = append(out, fmt.Sprintf("%d%d/%v", b, l, s.D))
	}
	return out
}

func wl134Frame(t *testing.T, code string) []byte {
	id, err := chipid.Parse(code, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := wl134.FromID(id)
	if err != nil {
		t.Fatal(err)
	}
	b, err := wl134.Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHandheldOnUART is the whole handheld: a WL-134 module on the UART
// (conntest playback), the driver of drivers/readers/wl134 through
// uartport, a classifier, and the buzzer and LED on gpiotest pins.
func TestHandheldOnUART(t *testing.T) {
	t.Parallel()
	codes := []string{"985121004515220", "900250000023921", "999000000001008"}
	var stream []byte
	for _, c := range codes {
		stream = append(stream, wl134Frame(t, c)...)
	}
	ops := make([]conntest.IO, len(stream))
	for i := range stream {
		ops[i] = conntest.IO{R: stream[i : i+1]}
	}
	uart := uartport.New(&conntest.Playback{Ops: ops, DontPanic: true}, nil)
	rd, err := wl134.New(uart, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{buzzer: gpiotest.Pin{N: "GPIO18"}, led: gpiotest.Pin{N: "GPIO23"}}
	fb, err := feedback.New(&rec.buzzer, &rec.led, &feedback.Opts{Sleep: rec.sleep})
	if err != nil {
		t.Fatal(err)
	}
	register := map[string]feedback.Signal{
		"985121004515220": feedback.Good,
		"900250000023921": feedback.Dangerous,
	}
	d, err := handheld.New(rd, fb, &handheld.Opts{Classify: func(ctx context.Context, r reader.Read) (feedback.Signal, error) {
		if s, ok := register[r.ID.Code]; ok {
			return s, nil
		}
		return feedback.Unknown, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	want := []feedback.Signal{feedback.Good, feedback.Dangerous, feedback.Unknown}
	for i, c := range codes {
		rec.steps = nil
		r, err := d.Next(context.Background())
		if err != nil || r.ID.Code != c {
			t.Fatalf("Next #%d = %s, %v, want %s", i, r.ID.Code, err, c)
		}
		if p := pattern(feedback.Patterns()[want[i]]); !slices.Equal(rec.steps, p) {
			t.Errorf("chip %s played %v, want the %s pattern %v", c, rec.steps, want[i], p)
		}
	}
	if !strings.HasPrefix(d.String(), "handheld wl134 on ") {
		t.Errorf("String() = %q", d.String())
	}
}

func TestFailures(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	fb, err := feedback.New(&rec.buzzer, &rec.led, &feedback.Opts{Sleep: rec.sleep})
	if err != nil {
		t.Fatal(err)
	}
	broken := errors.New("reader: antenna open circuit")
	rd := readertest.New("fake", readertest.Chip("985121004515220"), readertest.Fail(broken))
	lookup := errors.New("service unreachable")
	d, err := handheld.New(rd, fb, &handheld.Opts{Classify: func(context.Context, reader.Read) (feedback.Signal, error) {
		return 0, lookup
	}})
	if err != nil {
		t.Fatal(err)
	}
	failure := pattern(feedback.Patterns()[feedback.Failure])
	r, err := d.Next(context.Background())
	if !errors.Is(err, lookup) || r.ID.Code != "985121004515220" || !slices.Equal(rec.steps, failure) {
		t.Errorf("Next with a failing lookup = %s, %v, played %v; want the read, the error and the failure pattern", r.ID.Code, err, rec.steps)
	}
	rec.steps = nil
	if _, err := d.Next(context.Background()); !errors.Is(err, broken) || !slices.Equal(rec.steps, failure) {
		t.Errorf("Next with a failing reader = %v, played %v; want the error and the failure pattern", err, rec.steps)
	}
	if err := d.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	rec.steps = nil
	if _, err := d.Next(context.Background()); !errors.Is(err, reader.ErrClosed) || len(rec.steps) != 0 {
		t.Errorf("Next after Close = %v, played %v; want ErrClosed in silence", err, rec.steps)
	}
	if _, err := handheld.New(nil, fb, nil); err == nil {
		t.Error("New(nil reader) = nil error")
	}
}
