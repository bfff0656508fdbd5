package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPortsCommand(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCmd(t, "", "ports", "--json")
	if code != 0 {
		t.Fatalf("ports = %d, %s", code, errOut)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var p portJSON
		if err := json.Unmarshal([]byte(l), &p); err != nil || p.Name == "" {
			t.Errorf("ports line %q: %+v, %v", l, p, err)
		}
	}
	if code, _, _ := runCmd(t, "", "ports", "extra"); code != 2 {
		t.Errorf("ports extra = %d, want 2", code)
	}
}
