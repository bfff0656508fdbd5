package protocoltest

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/readers"
)

// fakeTB records a failure; Fatalf ends the goroutine as testing does.
type fakeTB struct {
	testing.TB
	failed bool
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed = true
	runtime.Goexit()
}

// failed runs fn with a fake TB in its own goroutine and reports whether
// fn failed it.
func failed(fn func(tb testing.TB)) bool {
	f := &fakeTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	return f.failed
}

var errNaN = errors.New("test: not a number")

// A frame of the test protocol is a decimal number on a line.
func decode(b []byte) (int, error) {
	n, err := strconv.Atoi(string(bytes.TrimSuffix(b, []byte("\n"))))
	if err != nil {
		return 0, errNaN
	}
	return n, nil
}

func encode(n int) ([]byte, error) { return fmt.Appendf(nil, "%d\n", n), nil }

func lines(buf []byte) (int, error) {
	if i := bytes.IndexByte(buf, '\n'); i >= 0 {
		return i + 1, nil
	}
	return 0, nil
}

// The helpers pass a sound protocol and fail a broken one, so the fuzz
// tests built on them can fail.
func TestHelpersFail(t *testing.T) {
	t.Parallel()
	offByOne := func(n int) ([]byte, error) { return encode(n + 1) }
	refuse := func(int) ([]byte, error) { return nil, errNaN }
	tests := []struct {
		name string
		fn   func(tb testing.TB)
		want bool
	}{
		{"round trip", func(tb testing.TB) { RoundTrip(tb, []byte("42\n"), decode, encode) }, false},
		{"round trip of a rejected input", func(tb testing.TB) { RoundTrip(tb, []byte("x\n"), decode, offByOne) }, false},
		{"encoder changes the frame", func(tb testing.TB) { RoundTrip(tb, []byte("42\n"), decode, offByOne) }, true},
		{"encoder refuses the frame", func(tb testing.TB) { RoundTrip(tb, []byte("42\n"), decode, refuse) }, true},
		{"split gives frames that decode", func(tb testing.TB) { SplitDecodes(tb, readers.SplitFunc(lines), []byte("1\n2\n"), decode) }, false},
		{"split gives a frame decode rejects", func(tb testing.TB) { SplitDecodes(tb, readers.SplitFunc(lines), []byte("1\nx\n"), decode) }, true},
		{"manual lines of a reader", func(tb testing.TB) { ManualLines(tb, "../testdata/reader_lines.json", "Allflex") }, false},
		{"manual lines of no reader", func(tb testing.TB) { ManualLines(tb, "../testdata/reader_lines.json", "no such reader") }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := failed(tt.fn); got != tt.want {
				t.Errorf("failed = %v, want %v", got, tt.want)
			}
		})
	}
}

// Num reads the numbers of a manual line's expected parse.
func TestNum(t *testing.T) {
	t.Parallel()
	l := ManualLines(t, "../testdata/reader_lines.json", "Allflex")[0]
	if n, ok := l.Num("country"); !ok || n != 982 {
		t.Errorf("Num(country) = %d, %v, want 982, true", n, ok)
	}
	if _, ok := l.Num("no such field"); ok {
		t.Error("Num(no such field) = true, want false")
	}
}
