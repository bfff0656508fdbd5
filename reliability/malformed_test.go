package reliability

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// apiDoc is the part of the served OpenAPI document the test needs.
type apiDoc struct {
	Paths map[string]map[string]struct {
		Parameters []struct {
			Name   string
			In     string
			Schema struct{ Type string }
		}
		RequestBody *struct {
			Content map[string]struct {
				Schema struct {
					Ref string `json:"$ref"`
				}
			}
		} `json:"requestBody"`
	}
	Components struct {
		Schemas map[string]struct {
			Type       string
			Enum       []string
			Properties map[string]docProperty
		}
	}
}

// docProperty is a property's schema: its own type, or a reference (a
// closed set is a named schema; a nullable one wraps it in allOf).
type docProperty struct {
	Type  string
	Enum  []string
	Ref   string `json:"$ref"`
	AllOf []struct {
		Ref string `json:"$ref"`
	} `json:"allOf"`
}

// probe is one malformed request and what it must get: strict probes a
// 4xx, the others anything but a 5xx (a value the service may accept).
type probe struct {
	what   string
	method string
	path   string
	body   string
	strict bool
}

// wrongTypes are JSON values of another type than a property's.
var wrongTypes = map[string][]string{
	"integer": {`"7"`, `1.5`, `1e400`, `99999999999999999999`, `true`, `[]`, `{}`},
	"number":  {`"7"`, `1e400`, `true`, `[]`, `{}`},
	"string":  {`12`, `true`, `[]`, `{}`},
	"boolean": {`"yes"`, `1`, `[]`},
	"array":   {`"x"`, `{}`, `1`},
	"object":  {`"x"`, `[]`, `1`},
}

// badIDs are path ids that cannot be ids.
var badIDs = []string{"abc", "-1", "0", "1.5", "99999999999999999999", "0x10"}

// probes builds the malformed requests for every documented operation.
func probes(doc *apiDoc) []probe {
	var out []probe
	paths := make([]string, 0, len(doc.Paths))
	for p := range doc.Paths {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		for m, op := range doc.Paths[p] {
			m = strings.ToUpper(m)
			if p == "/api/v1/scans/stream" {
				continue // an event stream answers 200 and never ends; see TestStreamRoles in httpapi
			}
			hasID := strings.Contains(p, "{id}")
			// A real id (1) lets the body reach validation; never the
			// test's own tokens.
			good := strings.ReplaceAll(p, "{id}", "1")
			if strings.HasPrefix(p, "/api/v1/tokens/") {
				good = strings.ReplaceAll(p, "{id}", "999999")
			}
			if hasID {
				for _, id := range badIDs {
					body := ""
					if op.RequestBody != nil {
						body = "{}"
					}
					out = append(out, probe{"id " + id, m, strings.ReplaceAll(p, "{id}", id), body, true})
				}
				// An id of nothing is not malformed: a list under it may
				// be empty; anything but a 5xx.
				out = append(out, probe{"id of nothing", m, strings.ReplaceAll(p, "{id}", "999999999"), "", false})
			}
			for _, q := range op.Parameters {
				if q.In != "query" {
					continue
				}
				vals := []string{"abc", "-1", "1e400", "99999999999999999999", strings.Repeat("9", 5000), "\xff\xfe", "%00", ""}
				for _, v := range vals {
					out = append(out, probe{"query " + q.Name + "=" + trim(v), m, good + "?" + q.Name + "=" + url.QueryEscape(v), "", false})
				}
			}
			if op.RequestBody == nil {
				continue
			}
			for _, b := range []string{"{", "[]", `"s"`, "123", `{"a":`, "\x00\xff", "{\"a\":1,}", `[{}]`} {
				out = append(out, probe{"body " + trim(b), m, good, b, true})
			}
			for _, b := range []string{"", "null", "{}", `{"zzz":1}`} {
				out = append(out, probe{"body " + trim(b), m, good, b, false})
			}
			out = append(out, probe{"4 MiB body", m, good, `{"notes":"` + strings.Repeat("x", 4<<20) + `"}`, true})
			ref := op.RequestBody.Content["application/json"].Schema.Ref
			schema := doc.Components.Schemas[strings.TrimPrefix(ref, "#/components/schemas/")]
			props := make([]string, 0, len(schema.Properties))
			for name := range schema.Properties {
				props = append(props, name)
			}
			slices.Sort(props)
			for _, name := range props {
				prop := schema.Properties[name]
				if len(prop.AllOf) == 1 {
					prop.Ref = prop.AllOf[0].Ref
				}
				if prop.Ref != "" {
					target := doc.Components.Schemas[strings.TrimPrefix(prop.Ref, "#/components/schemas/")]
					prop.Type, prop.Enum = target.Type, target.Enum
				}
				for _, v := range wrongTypes[prop.Type] {
					out = append(out, probe{fmt.Sprintf("%s: %s", name, v), m, good, fmt.Sprintf(`{%q:%s}`, name, v), true})
				}
				if len(prop.Enum) > 0 {
					out = append(out, probe{name + ": not in enum", m, good, fmt.Sprintf(`{%q:"zz-not-a-value"}`, name), false})
				}
				if prop.Type == "string" {
					out = append(out, probe{name + ": bad date", m, good, fmt.Sprintf(`{%q:"2026-13-45"}`, name), false})
					out = append(out, probe{name + ": NUL", m, good, fmt.Sprintf(`{%q:"a\u0000b"}`, name), false})
				}
				if prop.Type == "integer" {
					out = append(out, probe{name + ": negative", m, good, fmt.Sprintf(`{%q:-9223372036854775808}`, name), false})
				}
			}
		}
	}
	return out
}

func trim(s string) string {
	if len(s) > 24 {
		return fmt.Sprintf("%.24q…", s)
	}
	return fmt.Sprintf("%q", s)
}

// TestMalformedInput sends malformed ids, queries and bodies to every
// operation of the served OpenAPI document, as admin (so that every
// request reaches its handler): no answer is a 5xx, the malformed ones
// get a 4xx, every error is the service's JSON error, and the service
// is still up at the end.
func TestMalformedInput(t *testing.T) {
	t.Parallel()
	f := seed(t, 200, true)
	s := serve(t, f.db)
	hc := &http.Client{Timeout: 30 * time.Second}
	code, b := call(hc, "GET", s.URL+"/api/v1/openapi.json", "", "")
	if code != http.StatusOK {
		t.Fatalf("openapi.json = %d %s", code, b)
	}
	var doc apiDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	ps := probes(&doc)
	if len(ps) < 500 {
		t.Fatalf("%d probes from %d paths, want the whole API", len(ps), len(doc.Paths))
	}
	admin := f.tokens[service.RoleAdmin]
	by := map[string]int{}
	for _, p := range ps {
		code, b := call(hc, p.method, s.URL+p.path, admin, p.body)
		by[fmt.Sprintf("%dxx", code/100)]++
		name := fmt.Sprintf("%s %s (%s)", p.method, trimPath(p.path), p.what)
		switch {
		case code == 0:
			t.Fatalf("%s: no answer: %s\n%s", name, b, s.Log())
		case code >= 500:
			t.Errorf("%s = %d %.200s, want a 4xx", name, code, b)
		case p.strict && code < 400:
			t.Errorf("%s = %d %.200s, want a 4xx", name, code, b)
		}
		if code >= 400 && !jsonError(b) {
			t.Errorf("%s = %d %.200q, want the JSON error body", name, code, b)
		}
	}
	t.Logf("%d malformed requests to %d paths: %v", len(ps), len(doc.Paths), by)
	if code, b := call(hc, "GET", s.URL+"/healthz", "", ""); code != http.StatusOK {
		t.Errorf("healthz after the malformed requests = %d %s", code, b)
	}
}

func trimPath(p string) string {
	if len(p) > 80 {
		return p[:80] + "…"
	}
	return p
}
