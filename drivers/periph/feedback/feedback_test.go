package feedback_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"github.com/chipdesk/chipdesk/drivers/periph/feedback"
)

// edge is the level of both pins at a time from the pattern's start.
type edge struct {
	At          time.Duration
	Buzzer, LED gpio.Level
}

func (e edge) String() string { return fmt.Sprintf("%v:%v/%v", e.At, e.Buzzer, e.LED) }

// rig is a Dev on gpiotest pins whose sleep advances a fake clock and
// records the pins' levels when each step begins.
type rig struct {
	buzzer, led gpiotest.Pin
	now         time.Duration
	edges       []edge
	cancelAt    int // cancel the context at this sleep (0: never)
	cancel      context.CancelFunc
	sleeps      int
}

func newRig(t *testing.T) (*rig, *feedback.Dev) {
	r := &rig{buzzer: gpiotest.Pin{N: "GPIO18", L: gpio.High}, led: gpiotest.Pin{N: "GPIO23", L: gpio.High}}
	d, err := feedback.New(&r.buzzer, &r.led, &feedback.Opts{Sleep: r.sleep})
	if err != nil {
		t.Fatal(err)
	}
	if r.buzzer.Read() != gpio.Low || r.led.Read() != gpio.Low {
		t.Fatal("New left an output high")
	}
	return r, d
}

func (r *rig) sleep(ctx context.Context, d time.Duration) error {
	r.sleeps++
	r.edges = append(r.edges, edge{r.now, r.buzzer.Read(), r.led.Read()})
	if r.sleeps == r.cancelAt {
		r.cancel()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	r.now += d
	return nil
}

func (r *rig) end() []edge {
	return append(r.edges, edge{r.now, r.buzzer.Read(), r.led.Read()})
}

func TestGoodRead(t *testing.T) {
	t.Parallel()
	r, d := newRig(t)
	if err := d.Signal(context.Background(), feedback.Good); err != nil {
		t.Fatal(err)
	}
	ms := time.Millisecond
	want := []edge{{0, gpio.High, gpio.High}, {80 * ms, gpio.Low, gpio.High}, {1000 * ms, gpio.Low, gpio.Low}}
	if got := r.end(); !slices.Equal(got, want) {
		t.Errorf("Signal(good) edges = %v, want %v", got, want)
	}
}

// levels plays s and returns the buzzer's and the LED's level sequence
// (one entry per millisecond) as strings of 0 and 1.
func levels(t *testing.T, s feedback.Signal) (string, string) {
	r, d := newRig(t)
	if err := d.Signal(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	e := r.end()
	var b, l []byte
	for i := 0; i+1 < len(e); i++ {
		for at := e[i].At; at < e[i+1].At; at += time.Millisecond {
			b = append(b, byte('0'+boolInt(e[i].Buzzer)))
			l = append(l, byte('0'+boolInt(e[i].LED)))
		}
	}
	if last := e[len(e)-1]; last.Buzzer || last.LED {
		t.Errorf("%s ends with an output high", s)
	}
	return string(b), string(l)
}

func boolInt(l gpio.Level) int {
	if l {
		return 1
	}
	return 0
}

// runs returns the lengths of the high runs of a level string: the
// rhythm, whatever the total length.
func runs(s string) []int {
	var out []int
	n := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] == '1' {
			n++
			continue
		}
		if n > 0 {
			out = append(out, n)
		}
		n = 0
	}
	return out
}

func TestPatternsAreDistinct(t *testing.T) {
	t.Parallel()
	sigs := []feedback.Signal{feedback.Good, feedback.Dangerous, feedback.Unknown, feedback.Failure}
	buzz := map[string]feedback.Signal{}
	led := map[string]feedback.Signal{}
	for _, s := range sigs {
		b, l := levels(t, s)
		// By ear: the buzzer rhythms differ. By eye: the LED rhythms
		// differ (Failure keeps the LED dark).
		kb, kl := fmt.Sprint(runs(b)), fmt.Sprint(runs(l))
		if o, ok := buzz[kb]; ok {
			t.Errorf("%s and %s sound alike: buzzer runs %s", s, o, kb)
		}
		if o, ok := led[kl]; ok {
			t.Errorf("%s and %s look alike: LED runs %s", s, o, kl)
		}
		buzz[kb], led[kl] = s, s
		if d := feedback.Patterns()[s].Duration(); d > 3*time.Second {
			t.Errorf("%s lasts %v, more than the 3 s between two scans", s, d)
		}
	}
	if b, _ := levels(t, feedback.Dangerous); len(runs(b)) < 5 {
		t.Errorf("dangerous beeps %d times, want at least 5", len(runs(b)))
	}
}

func TestCancelledPatternEndsLow(t *testing.T) {
	t.Parallel()
	r, d := newRig(t)
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel, r.cancelAt = cancel, 3
	err := d.Signal(ctx, feedback.Dangerous)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Signal = %v, want context.Canceled", err)
	}
	if r.buzzer.Read() != gpio.Low || r.led.Read() != gpio.Low {
		t.Error("an output stayed high after the pattern was cancelled")
	}
}

func TestOverridesAndMissingPins(t *testing.T) {
	t.Parallel()
	led := gpiotest.Pin{N: "GPIO23"}
	var slept []time.Duration
	d, err := feedback.New(nil, &led, &feedback.Opts{
		Patterns: map[feedback.Signal]feedback.Pattern{feedback.Good: {{LED: gpio.High, D: time.Second}}},
		Sleep: func(ctx context.Context, d time.Duration) error {
			slept = append(slept, d)
			if led.Read() != gpio.High {
				t.Error("LED low during the override pattern")
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Signal(context.Background(), feedback.Good); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(slept, []time.Duration{time.Second}) {
		t.Errorf("slept %v, want [1s]", slept)
	}
	if err := d.Signal(context.Background(), feedback.Signal(9)); err == nil {
		t.Error("Signal(9) = nil error")
	}
	if got, want := d.String(), "feedback buzzer none led GPIO23"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
