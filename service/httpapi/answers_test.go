package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/chipdesk/chipdesk/service/httpapi"
)

// jsonKey is the spelling of every JSON name the API writes.
var jsonKey = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// badKeys lists the object keys in v (decoded JSON) that are not
// snake_case, each with its path.
func badKeys(v any, path string, out []string) []string {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if !jsonKey.MatchString(k) {
				out = append(out, path+"."+k)
			}
			out = badKeys(e, path+"."+k, out)
		}
	case []any:
		for _, e := range x {
			out = badKeys(e, path+"[]", out)
		}
	}
	return out
}

func TestBadKeys(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		body string
		want []string
	}{
		{`{"animal_id": 1, "fee_lines": [{"cents": 1}], "x2": null}`, nil},
		{`{"animalId": 1}`, []string{".animalId"}},
		{`{"items": [{"created_At": "x"}]}`, []string{".items[].created_At"}},
		{`{"a": {"_b": 1}}`, []string{".a._b"}},
		{`[{"9c": 2}]`, []string{"[].9c"}},
	} {
		var v any
		if err := json.Unmarshal([]byte(tt.body), &v); err != nil {
			t.Fatal(err)
		}
		got := badKeys(v, "", nil)
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("badKeys(%s) = %v, want %v", tt.body, got, tt.want)
		}
	}
}

// strictDoc is the served document with every object schema closed
// (additionalProperties false), so that an answer carrying a field the
// document lacks fails validation. The document leaves answers open for
// clients; the tests hold the server to it.
var strictDoc = sync.OnceValues(func() (routers.Router, error) {
	doc, err := openapi3.NewLoader().LoadFromData(httpapi.OpenAPI())
	if err != nil {
		return nil, err
	}
	seen := map[*openapi3.Schema]bool{}
	var closeSchema func(s *openapi3.Schema)
	closeSchema = func(s *openapi3.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if s.Type.Is("object") && len(s.Properties) > 0 {
			no := false
			s.AdditionalProperties = openapi3.AdditionalProperties{Has: &no}
		}
		for _, p := range s.Properties {
			closeSchema(p.Value)
		}
		if s.Items != nil {
			closeSchema(s.Items.Value)
		}
		for _, a := range s.AllOf {
			closeSchema(a.Value)
		}
	}
	for _, s := range doc.Components.Schemas {
		closeSchema(s.Value)
	}
	doc.Servers = nil
	return legacy.NewRouter(doc)
})

// answerChecker wraps the API handler of a test harness: every JSON
// answer it gives, in every test that uses the harness, must have only
// snake_case keys and match the document's schema for its route and
// status, with no field the document lacks; and every request the
// server accepted (2xx) must be one the document allows, so that the
// document asks no more of a client than the server does.
func answerChecker(t *testing.T, next http.Handler) http.Handler {
	router, err := strictDoc()
	if err != nil {
		t.Fatalf("loading openapi.json: %v", err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/openapi.json" || !strings.HasPrefix(r.URL.Path, "/api/") && r.URL.Path != "/healthz" {
			next.ServeHTTP(w, r)
			return
		}
		var reqBody []byte
		if r.Body != nil {
			reqBody, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(reqBody))
		}
		rec := &recorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") || rec.body.Len() == 0 {
			return
		}
		where := r.Method + " " + r.URL.RequestURI()
		var v any
		if err := json.Unmarshal(rec.body.Bytes(), &v); err != nil {
			t.Errorf("%s answered %d with JSON that does not decode: %v", where, rec.code, err)
			return
		}
		if bad := badKeys(v, "", nil); len(bad) > 0 {
			t.Errorf("%s answered %d with keys not snake_case: %v", where, rec.code, bad)
		}
		// The route as the document has it: the request as it came,
		// on the document's relative server.
		req := r.Clone(context.Background())
		req.URL.Scheme, req.URL.Host, req.Host = "", "", ""
		route, params, err := router.FindRoute(req)
		if err != nil {
			if rec.code != http.StatusNotFound && rec.code != http.StatusMethodNotAllowed {
				t.Errorf("%s answered %d but the document has no such operation: %v", where, rec.code, err)
			}
			return
		}
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}}
		if rec.code >= 200 && rec.code < 300 {
			req.Body = io.NopCloser(bytes.NewReader(reqBody))
			if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
				t.Errorf("%s %s was accepted (%d) but the document refuses it: %v", where, reqBody, rec.code, err)
			}
		}
		out := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: in,
			Status:                 rec.code, Header: rec.Header(),
			Body:    io.NopCloser(bytes.NewReader(rec.body.Bytes())),
			Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
		}
		if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
			t.Errorf("%s answered %d %s, which does not match the document: %v", where, rec.code, rec.body.Bytes(), err)
		}
	})
}

// recorder keeps a copy of the answer's status and body as it passes.
type recorder struct {
	http.ResponseWriter
	code int
	body bytes.Buffer
}

func (w *recorder) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *recorder) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	if strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		w.body.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets the event stream reach Flush.
func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
