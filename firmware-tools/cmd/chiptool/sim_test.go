//go:build linux

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port/serialport"
	"github.com/chipdesk/chipdesk/drivers/readers/catalog"
	"github.com/chipdesk/chipdesk/internal/cmdline"
)

// chiptool sim makes the link, sends the chips of its input in the
// protocol's bytes, and removes the link when interrupted.
func TestSimCommand(t *testing.T) {
	t.Parallel()
	link := filepath.Join(t.TempDir(), "reader")
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut bytes.Buffer
	e := &cmdline.Env{Stdin: strings.NewReader("# chips\n985121004515220\n\nAVID*012*345*678\n"), Stdout: &out, Stderr: &errOut, Now: time.Now}
	done := make(chan int)
	go func() {
		done <- run(ctx, e, []string{"sim", "--protocol", "rt100", "--link", link, "--rate", "100", "--noise", "0.1"})
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := os.Stat(link); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no link")
		}
		time.Sleep(10 * time.Millisecond)
	}
	p, _ := catalog.Lookup("rt100")
	sp, err := serialport.Open(link, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.New(sp, nil)
	if err != nil {
		t.Fatal(err)
	}
	rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
	defer rcancel()
	for _, want := range []string{"985121004515220", "012345678"} {
		rd, err := r.Next(rctx)
		if err != nil || rd.ID.Code != want {
			t.Fatalf("Next() = %s, %v, want %s", rd.ID.Code, err, want)
		}
	}
	r.Close()
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("sim = %d, %s", code, errOut.String())
	}
	if _, err := os.Lstat(link); !os.IsNotExist(err) {
		t.Errorf("link left behind: %v", err)
	}
}

func TestSimUsage(t *testing.T) {
	t.Parallel()
	link := filepath.Join(t.TempDir(), "x")
	for _, args := range [][]string{
		{"sim", "--link", link},
		{"sim", "--protocol", "wl134"},
		{"sim", "--protocol", "nope", "--link", link},
		{"sim", "--protocol", "wl134", "--link", link, "--noise", "1"},
	} {
		if code, _, _ := runCmd(t, "", args...); code != 2 {
			t.Errorf("%v = %d, want 2", args, code)
		}
	}
}
