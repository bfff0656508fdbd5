package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/lookup"
)

// syncBuffer is a bytes.Buffer safe for a command writing while the
// test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls buf until re matches, and returns the first group.
func waitFor(t *testing.T, buf *syncBuffer, re *regexp.Regexp, within time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		if m := re.FindStringSubmatch(buf.String()); m != nil {
			return m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %v in output within %v:\n%s", re, within, buf.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// runAsync runs a command line in the background; the returned func
// stops it (as SIGINT would) and returns its exit status.
func runAsync(t *testing.T, args ...string) (stdout, stderr *syncBuffer, stop func() int) {
	t.Helper()
	stdout, stderr = &syncBuffer{}, &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	e := &cmdline.Env{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr, Now: time.Now}
	done := make(chan int, 1)
	go func() { done <- run(ctx, e, args) }()
	var once sync.Once
	code := -1
	stop = func() int {
		once.Do(func() {
			cancel()
			select {
			case code = <-done:
			case <-time.After(15 * time.Second):
				t.Errorf("%v did not stop within 15 s of its signal", args)
			}
		})
		return code
	}
	t.Cleanup(func() { stop() })
	return stdout, stderr, stop
}

func serveCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(context.Background(), &cmdline.Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e, Now: time.Now}, args)
	return code, o.String(), e.String()
}

var urlRE = regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+)`)

// TestServeEndToEnd is the acceptance path: a token from "token create",
// "serve" with a reader on a simulated WL-134 on a pseudo-terminal, the
// scan stream over real HTTP, and a scan whose event carries the
// animal's record.
func TestServeEndToEnd(t *testing.T) {
	db := filepath.Join(t.TempDir(), "chipdesk.db")
	code, tok, errOut := serveCLI(t, "token", "create", "--db", db, "--role", "intake")
	tok = strings.TrimSpace(tok)
	if code != 0 || !strings.HasPrefix(tok, service.TokenPrefix) || strings.Contains(tok, "\n") {
		t.Fatalf("token create = %d, stdout %q, stderr %q; want one token on stdout", code, tok, errOut)
	}
	code, pubTok, _ := serveCLI(t, "token", "create", "--role", "public", "--name", "kiosk", "--db", db)
	pubTok = strings.TrimSpace(pubTok)
	if code != 0 {
		t.Fatalf("token create public = %d", code)
	}

	// A record to find: a dog with a chip, through the store.
	chip := "985121004515220"
	seedOne(t, db, chip)

	sim, err := readersim.Start(&readersim.Opts{Protocol: "wl134"})
	if err != nil {
		t.Fatalf("readersim: %v", err)
	}
	defer sim.Close()
	_, stderr, stop := runAsync(t, "serve", "--dev-keys", "--db", db, "--listen", "127.0.0.1:0", "--reader", "wl134:"+sim.Path()+",name=desk-1")
	base := waitFor(t, stderr, urlRE, 10*time.Second)
	waitFor(t, stderr, regexp.MustCompile(`(reader connected)`), 10*time.Second)

	get := func(tok, path string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", base+path, nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	if r, _ := get("", "/api/v1/lookup?chip="+chip); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("lookup without token = %d, want 401", r.StatusCode)
	}
	if r, _ := get(pubTok, "/api/v1/scans"); r.StatusCode != http.StatusForbidden {
		t.Errorf("scans as public = %d, want 403", r.StatusCode)
	}
	if r, b := get(pubTok, "/api/v1/lookup?chip="+chip); r.StatusCode != http.StatusOK || strings.Contains(string(b), "owner") {
		t.Errorf("public lookup = %d %s, want 200 without owner", r.StatusCode, b)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/v1/scans/stream?reader=desk-1", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream = %d %s, want 200 text/event-stream", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	events := make(chan string, 4)
	go func() {
		br := bufio.NewReader(resp.Body)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				close(events)
				return
			}
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				events <- data
			}
		}
	}()
	if err := sim.SendText(ctx, chip); err != nil {
		t.Fatal(err)
	}
	var ev struct {
		Reader string
		At     time.Time
		Chip   struct{ Code, Manufacturer string }
		Lookup lookup.Answer
	}
	select {
	case data, ok := <-events:
		if !ok {
			t.Fatal("stream ended")
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("event %s: %v", data, err)
		}
	case <-ctx.Done():
		t.Fatalf("no scan event; serve said:\n%s", stderr)
	}
	if ev.Reader != "desk-1" || ev.At.IsZero() || ev.Chip.Code != chip || ev.Chip.Manufacturer == "" {
		t.Errorf("event reader %q at %v chip %+v, want desk-1, a time, %s with manufacturer", ev.Reader, ev.At, ev.Chip, chip)
	}
	if !ev.Lookup.Found || ev.Lookup.Animal == nil || ev.Lookup.Animal.Name != "Wren" || ev.Lookup.Owner == nil || ev.Lookup.Licence == nil || ev.Lookup.Rabies == nil {
		t.Errorf("event lookup = %+v, want Wren with owner, licence and rabies", ev.Lookup)
	}
	cancel()
	if code := stop(); code != 0 {
		t.Errorf("serve exit status %d after the signal, want 0; stderr:\n%s", code, stderr)
	}
}

// seedOne stores an owner and a dog carrying chip.
func seedOne(t *testing.T, db, chip string) {
	t.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, db, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	o := &service.Owner{Name: "Sam Okafor", City: "Minneapolis", Phone: "612-555-0100"}
	if err := st.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	a := &service.Animal{OwnerID: o.ID, Name: "Wren", Species: service.Dog}
	if err := st.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := st.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: chip, Kind: "iso11784"}); err != nil {
		t.Fatal(err)
	}
}

func TestServeFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
	}{
		{name: "unknown flag", args: []string{"serve", "--nope"}, want: 2},
		{name: "bad reader", args: []string{"serve", "--db", filepath.Join(t.TempDir(), "x.db"), "--reader", "acme:/dev/null"}, want: 1},
		{name: "extra argument", args: []string{"serve", "now"}, want: 2},
		{name: "bad log level", args: []string{"serve", "--log-level", "loud"}, want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, _, errOut := serveCLI(t, tt.args...); code != tt.want {
				t.Errorf("%v = %d (%s), want %d", tt.args, code, errOut, tt.want)
			}
		})
	}
}

func TestTokenRevokeAndList(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	if code, _, e := serveCLI(t, "token", "create", "--db", db, "--role", "officer", "--name", "van-3"); code != 0 {
		t.Fatalf("create: %d %s", code, e)
	}
	if code, _, _ := serveCLI(t, "token", "create", "--db", db, "--role", "boss"); code != 2 {
		t.Errorf("create with a bad role = %d, want 2", code)
	}
	if code, _, e := serveCLI(t, "token", "revoke", "1", "--db", db); code != 0 {
		t.Fatalf("revoke: %d %s", code, e)
	}
	code, out, _ := serveCLI(t, "token", "list", "--db", db)
	if code != 0 || !regexp.MustCompile(`1\s+van-3\s+officer.*revoked`).MatchString(out) {
		t.Errorf("list = %d\n%s\nwant van-3 revoked", code, out)
	}
	if code, _, _ := serveCLI(t, "token", "revoke", "99", "--db", db); code == 0 {
		t.Error("revoking an unknown token succeeded")
	}
}

func TestConfigPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "chipdesk.toml")
	if err := os.WriteFile(file, []byte("db = \"file.db\"\nlisten = \"127.0.0.1:7000\"\nsite = \"file-site\"\nreaders = [\"wl134:/dev/ttyUSB0\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CHIPDESK_LISTEN": "127.0.0.1:7001", "CHIPDESK_SITE": "env-site"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name                       string
		args                       []string
		wantDB, wantListen, wantSi string
		wantReaders                int
	}{
		{name: "file then env", args: []string{"--config", file}, wantDB: "file.db", wantListen: "127.0.0.1:7001", wantSi: "env-site", wantReaders: 1},
		{name: "flags win", args: []string{"--config=" + file, "--site", "flag-site", "--reader", "allflex:/dev/rfcomm0", "--reader", "are:/dev/ttyS1"}, wantDB: "file.db", wantListen: "127.0.0.1:7001", wantSi: "flag-site", wantReaders: 2},
		{name: "defaults", args: nil, wantDB: "chipdesk.db", wantListen: "127.0.0.1:7001", wantSi: "env-site", wantReaders: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := newFlagSet("serve")
			c, err := loadConfig(fs, tt.args, getenv)
			if err != nil {
				t.Fatalf("loadConfig(%q): %v", tt.args, err)
			}
			if c.DB != tt.wantDB || c.Listen != tt.wantListen || c.Site != tt.wantSi || len(c.Readers) != tt.wantReaders {
				t.Errorf("loadConfig(%q) = db %q listen %q site %q readers %q; want %q %q %q %d", tt.args, c.DB, c.Listen, c.Site, c.Readers, tt.wantDB, tt.wantListen, tt.wantSi, tt.wantReaders)
			}
		})
	}
	if err := os.WriteFile(file, []byte("colour = \"red\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadConfig(newFlagSet("serve"), []string{"--config", file}, getenv); err == nil || !strings.Contains(err.Error(), "colour") {
		t.Errorf("unknown key: err = %v, want it named", err)
	}
	if _, err := loadConfig(newFlagSet("serve"), []string{"--config", filepath.Join(dir, "missing.toml")}, getenv); err == nil {
		t.Error("a named config file that is missing is not an error")
	}
}

func TestDefaultListenIsLoopback(t *testing.T) {
	if l := defaultConfig().Listen; !strings.HasPrefix(l, "127.0.0.1:") {
		t.Errorf("default listen %q, want loopback", l)
	}
}

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}
