package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service/lookup"
)

// TestDemo runs "chipdesk demo" as a newcomer would: it prints a URL
// that signs a browser in, the page shows the simulated reader's scans,
// and the seeded records include a dangerous dog, an expired licence and
// an animal under quarantine, in both cities.
func TestDemo(t *testing.T) {
	stdout, stderr, stop := runAsync(t, "demo", "--listen", "127.0.0.1:0", "--every", "100ms", "--log-level", "warn")
	login := waitFor(t, stdout, regexp.MustCompile(`Open:\s+(\S+)`), 20*time.Second)
	token := waitFor(t, stdout, regexp.MustCompile(`Intake token:\s+(\S+)`), time.Second)
	base := login[:strings.Index(login, "/login")]

	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	resp, err := browser.Get(login)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "EventSource") || !strings.Contains(string(page), "demo-admin") {
		t.Fatalf("login link = %d, want the signed-in live page:\n%s", resp.StatusCode, page)
	}

	// The API's scan stream (the pages have their own, package web).
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/v1/scans/stream?reader="+demoReader, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	sresp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer sresp.Body.Close()
	br := bufio.NewReader(sresp.Body)
	seen := map[string]bool{}
	for len(seen) < 3 {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("stream: %v after %d events; demo said:\n%s", err, len(seen), stderr)
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var ev lookup.ScanEvent
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Reader != demoReader || ev.Lookup == nil {
			t.Fatalf("event %s, want a %s scan with its lookup", data, demoReader)
		}
		seen[ev.Chip.Code] = true
	}

	find := func(want func(a *lookup.Answer) bool, what string) {
		t.Helper()
		for _, chip := range []string{"982009104515221", "985121004515220", "985141000654321", "900164000123456", "977200000123456", "985141000777001"} {
			req, _ := http.NewRequest("GET", base+"/api/v1/lookup?chip="+chip, nil)
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var a lookup.Answer
			err = json.NewDecoder(resp.Body).Decode(&a)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if want(&a) {
				return
			}
		}
		t.Errorf("no seeded animal is %s", what)
	}
	find(func(a *lookup.Answer) bool {
		return a.Dangerous != nil && a.Dangerous.Level == "dangerous" && len(a.Dangerous.Restrictions) > 0 && a.AlertDetails[0].Severity == "danger"
	}, "a dangerous dog with restrictions first")
	find(func(a *lookup.Answer) bool { return a.Licence != nil && a.Licence.Status == "expired" }, "an expired licence")
	find(func(a *lookup.Answer) bool { return a.Quarantine != nil && a.Jurisdiction == "chanhassen" }, "under quarantine in Chanhassen")
	find(func(a *lookup.Answer) bool { return a.Redemption != nil && !a.HoldUntil.IsZero() }, "impounded with a hold and a redemption")

	// The seeded licences' tags print on the simulated printer, through
	// the same job worker as serve's --printer (the API lists them done).
	var done struct {
		Items []struct{ Device string }
		Total int
	}
	for deadline := time.Now().Add(15 * time.Second); done.Total == 0 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		req, _ := http.NewRequest("GET", base+"/api/v1/jobs?state=done", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(resp.Body).Decode(&done)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("jobs = %d %v", resp.StatusCode, err)
		}
	}
	if done.Total == 0 || done.Items[0].Device != "demo-zebra" {
		t.Errorf("done jobs %+v, want the seeded tags printed on demo-zebra; demo said:\n%s", done, stderr)
	}
	if code := stop(); code != 0 {
		t.Errorf("demo exit status %d, want 0", code)
	}
}
