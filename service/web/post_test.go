package web_test

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestPostsNeverAnswer200: every POST route of the pages, as the source
// registers them, answers 303 or 4xx, never 200, to an empty form and to
// one with nonsense in it, so that a reload never sends a form again.
func TestPostsNeverAnswer200(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	route := regexp.MustCompile(`HandleFunc\("POST (/[^"]*)"`)
	var routes []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range route.FindAllStringSubmatch(string(b), -1) {
			routes = append(routes, m[1])
		}
	}
	if len(routes) < 20 {
		t.Fatalf("found %d POST routes in the source; the pattern is wrong", len(routes))
	}
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleAdmin)
	id := strconv.FormatInt(f.tom, 10)
	fill := strings.NewReplacer("{id}", id, "{j}", "MPLS", "{year}", "2027", "{name}", "desk", "{action}", "frame", "{kind}", "kennel")
	for _, rt := range routes {
		if rt == "/logout" {
			continue
		}
		p := fill.Replace(rt)
		for _, form := range []url.Values{{}, {"notice_on": {"soon"}, "disposition": {"gone"}, "name": {"\x00"}, "amount_cents": {"x"}, "species": {"dragon"}}} {
			form.Set("csrf", c.csrf)
			st, _, _ := c.do("POST", p, form)
			if st == http.StatusOK || st == http.StatusCreated || st >= 500 {
				t.Errorf("POST %s (%v) = %d, want 303 or 4xx", p, form, st)
			}
		}
	}
}
