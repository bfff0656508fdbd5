package chipdesk_test

// The commit habit of CONTRIBUTING.md ("Commits"), checked on the
// history: a subject under 72 characters, so that `git log --oneline`
// reads as a list, and a body that gives the reason. Commits made before
// the habit was written down are not judged.

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// habitSince is the last commit made before the habit: every commit not
// reachable from it is judged.
const habitSince = "160e2d4390801dfe70cef2e605be284998db2d81"

// maxSubject is the longest subject CONTRIBUTING.md allows.
const maxSubject = 72

// commitFault says what is wrong with one commit message, or "".
func commitFault(subject, body string) string {
	switch {
	case strings.TrimSpace(subject) == "":
		return "no subject"
	case len([]rune(subject)) > maxSubject:
		return fmt.Sprintf("subject of %d characters (at most %d)", len([]rune(subject)), maxSubject)
	case strings.TrimSpace(body) == "":
		return "no body (the reason, and the figures for a change of speed or size)"
	}
	return ""
}

func TestCommitFault(t *testing.T) {
	long := strings.Repeat("x", maxSubject+1)
	for _, c := range []struct {
		subject, body string
		bad           bool
	}{
		{"sqlite: key lookup rows by the chip's digits", "A chip lookup searched twice.", false},
		{strings.Repeat("é", maxSubject), "counted in characters, not bytes", false},
		{long, "body", true},
		{"web: fix", "", true},
		{"web: fix", " \n\t", true},
		{"", "body", true},
	} {
		if got := commitFault(c.subject, c.body); (got != "") != c.bad {
			t.Errorf("commitFault(%q, %q) = %q, want bad=%v", c.subject, c.body, got, c.bad)
		}
	}
}

func TestCommitMessages(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: commit messages not checked")
	}
	if err := exec.Command("git", "cat-file", "-e", habitSince+"^{commit}").Run(); err != nil {
		t.Skipf("not a git checkout with its history (%v): commit messages not checked", err)
	}
	// NUL ends each field, RS each commit: a body may hold anything else.
	out, err := exec.Command("git", "log", "--format=%H%x00%s%x00%b%x1e", habitSince+"..HEAD").Output()
	if err != nil {
		t.Fatalf("git log: %v", err)
	}
	n := 0
	for _, rec := range strings.Split(string(out), "\x1e") {
		rec = strings.TrimLeft(rec, "\n")
		if rec == "" {
			continue
		}
		f := strings.SplitN(rec, "\x00", 3)
		if len(f) != 3 {
			t.Fatalf("git log record %q: want hash, subject and body", rec)
		}
		n++
		if fault := commitFault(f[1], f[2]); fault != "" {
			t.Errorf("commit %.12s %q: %s", f[0], f[1], fault)
		}
	}
	t.Logf("%d commits since %.12s judged", n, habitSince)
}
