package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func parseLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var res []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		res = append(res, m)
	}
	return res
}

func TestParseCommand(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCmd(t, "", "parse", "LA 982 000001088420\r\n", "29FA76343A6F0001", "--locale", "en_AU", "AVID*012*345*678", "4a3d5c1b2e")
	if code != 0 {
		t.Fatalf("parse = %d, %q", code, errOut)
	}
	got := parseLines(t, out)
	want := []map[string]any{
		{"input": "LA 982 000001088420\r\n", "ok": true, "kind": "iso11784", "code": "982000001088420", "country": 982.0, "national": 1088420.0, "animal": true, "manufacturer": "24PetWatch"},
		{"input": "29FA76343A6F0001", "ok": true, "kind": "iso11784", "code": "985121004515220", "animal": true, "manufacturer": "Lifechip"},
		{"input": "AVID*012*345*678", "ok": true, "kind": "avid", "code": "012345678", "manufacturer": "AVID"},
		{"input": "4a3d5c1b2e", "ok": true, "kind": "fecava", "code": "4A3D5C1B2E", "manufacturer": "HomeAgain"},
	}
	if len(got) != len(want) {
		t.Fatalf("parse printed %d objects, want %d: %s", len(got), len(want), out)
	}
	for i := range want {
		for k, v := range want[i] {
			if got[i][k] != v {
				t.Errorf("parse %q: %s = %v, want %v", want[i]["input"], k, got[i][k], v)
			}
		}
	}
	if _, ok := got[3]["animal"]; ok {
		t.Errorf("FECAVA input reports an animal flag: %v", got[3])
	}
	if _, ok := got[2]["country"]; ok {
		t.Errorf("AVID input reports a country: %v", got[2])
	}
}

func TestParseCommandStdin(t *testing.T) {
	t.Parallel()
	code, out, _ := runCmd(t, "985121004515220\n12345\n8000010000100000\n", "parse", "--locale", "en_US")
	if code != 0 {
		t.Errorf("parse with invalid input = %d, want 0 (reported in the output)", code)
	}
	got := parseLines(t, out)
	if len(got) != 3 {
		t.Fatalf("parse printed %d objects: %s", len(got), out)
	}
	if got[0]["ok"] != true || got[0]["manufacturer"] != "HomeAgain" {
		t.Errorf("line 1: %v", got[0])
	}
	if got[1]["ok"] != false || !strings.Contains(got[1]["error"].(string), "invalid") {
		t.Errorf("line 2: %v", got[1])
	}
	if got[2]["ok"] != false || !strings.Contains(got[2]["error"].(string), "ambiguous") || len(got[2]["candidates"].([]any)) != 2 {
		t.Fatalf("line 3: %v", got[2])
	}
	for i, want := range []string{"004000001048576", "032000008388609"} {
		c := got[2]["candidates"].([]any)[i].(map[string]any)
		if c["code"] != want || c["kind"] != "iso11784" {
			t.Errorf("candidate %d = %v, want code %s", i, c, want)
		}
	}
}

// The Tru-Test case: the 16 digits with a leading zero are one chip,
// and a declared form picks a reading of an ambiguous text.
func TestParseCommandForms(t *testing.T) {
	t.Parallel()
	_, out1, _ := runCmd(t, "", "parse", "0826012345600001")
	code, out, errOut := runCmd(t, "", "parse", "--form", "hex64", "8000010000100000")
	if code != 0 {
		t.Fatalf("parse = %d, %q", code, errOut)
	}
	got := parseLines(t, out1+out)
	if len(got) != 2 || got[0]["ok"] != true || got[0]["code"] != "826012345600001" {
		t.Errorf("Tru-Test: %v", got)
	}
	if len(got) == 2 && (got[1]["ok"] != true || got[1]["code"] != "004000001048576") {
		t.Errorf("declared hex64: %v", got[1])
	}
	if code, _, errOut := runCmd(t, "", "parse", "--form", "octal", "1"); code != 2 || !strings.Contains(errOut, "unknown form") {
		t.Errorf("parse --form octal = %d, %q", code, errOut)
	}
}

func TestParseCommandFlags(t *testing.T) {
	t.Parallel()
	if code, _, errOut := runCmd(t, "", "parse", "--bogus", "x"); code != 2 || !strings.Contains(errOut, "usage") {
		t.Errorf("parse --bogus = %d, %q", code, errOut)
	}
	// Everything after -- is a text, even when it looks like a flag.
	code, out, _ := runCmd(t, "", "parse", "--", "--locale")
	if code != 0 || !strings.Contains(out, `"input":"--locale"`) || !strings.Contains(out, `"ok":false`) {
		t.Errorf("parse -- --locale = %d, %s", code, out)
	}
	if code, out, _ := runCmd(t, "", "parse", "-h"); code != 0 || !strings.Contains(out, "usage") {
		t.Errorf("parse -h = %d, %q", code, out)
	}
}
