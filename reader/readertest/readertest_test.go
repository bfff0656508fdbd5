package readertest

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

func TestScript(t *testing.T) {
	t.Parallel()
	hangup := errors.New("port: hangup")
	r := New("bench", Chip("985121004515220"), Fail(hangup), Chip("AVID*012*345*678"))
	r.End = io.EOF
	ctx := context.Background()
	got, err := r.Next(ctx)
	if err != nil || got.ID.Code != "985121004515220" || got.Source != "bench" || got.Protocol != reader.AirISO ||
		string(got.Raw) != "985121004515220" {
		t.Errorf("Next() = %+v, %v", got, err)
	}
	if _, err := r.Next(ctx); !errors.Is(err, hangup) {
		t.Errorf("Next() = %v, want hangup", err)
	}
	if got, err := r.Next(ctx); err != nil || got.ID.Kind != chipid.KindAVID {
		t.Errorf("Next() = %+v, %v", got, err)
	}
	for range 2 {
		if _, err := r.Next(ctx); !errors.Is(err, io.EOF) {
			t.Errorf("Next() after script = %v, want io.EOF", err)
		}
	}
	if err := r.Close(); err != nil {
		t.Errorf("Close() = %v", err)
	}
	if _, err := r.Next(ctx); !errors.Is(err, reader.ErrClosed) {
		t.Errorf("Next() after Close = %v, want ErrClosed", err)
	}
	if r.Consumed() != 3 || !r.Closed() {
		t.Errorf("Consumed() = %d, Closed() = %t", r.Consumed(), r.Closed())
	}
	if err := r.Close(); err != nil {
		t.Errorf("second Close() = %v", err)
	}
}

func TestBadScriptStep(t *testing.T) {
	t.Parallel()
	r := New("", Chip("12345"))
	if _, err := r.Next(context.Background()); !errors.Is(err, chipid.ErrInvalid) {
		t.Errorf("Next() = %v, want the parse error", err)
	}
	if r.String() != "readertest" {
		t.Errorf("String() = %q", r.String())
	}
}

func TestCloseReportsUnconsumed(t *testing.T) {
	t.Parallel()
	r := New("r", Chip("985121004515220"), Fail(io.ErrUnexpectedEOF), Chip("4A3D5C1B2E"))
	if _, err := r.Next(context.Background()); err != nil {
		t.Fatal(err)
	}
	err := r.Close()
	if !errors.Is(err, ErrUnconsumed) || !strings.Contains(err.Error(), "2 steps left") || !strings.Contains(err.Error(), "4A3D5C1B2E") {
		t.Errorf("Close() = %v", err)
	}
}

func TestBlocksUntilContextDone(t *testing.T) {
	t.Parallel()
	r := New("idle")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := r.Next(ctx)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("Next returned %v on an empty script", err)
	case <-time.After(20 * time.Millisecond):
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Next() = %v, want context.Canceled", err)
	}
}

func TestCloseAndPushWakeNext(t *testing.T) {
	t.Parallel()
	r := New("idle")
	reads := make(chan reader.Read, 1)
	errs := make(chan error, 2)
	go func() {
		rd, err := r.Next(context.Background())
		if err != nil {
			errs <- err
			return
		}
		reads <- rd
		_, err = r.Next(context.Background())
		errs <- err
	}()
	r.Push(Chip("00-1234-5678"))
	select {
	case rd := <-reads:
		if rd.ID.Kind != chipid.KindTrovan || rd.Protocol != reader.AirTrovan {
			t.Errorf("pushed read = %+v", rd)
		}
	case err := <-errs:
		t.Fatalf("Next() = %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("Push did not wake Next")
	}
	if err := r.Close(); err != nil {
		t.Errorf("Close() = %v", err)
	}
	select {
	case err := <-errs:
		if !errors.Is(err, reader.ErrClosed) {
			t.Errorf("Next() after Close = %v, want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not wake Next")
	}
}
