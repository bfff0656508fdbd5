package httpapi

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite openapi.json from GenerateOpenAPI")

// TestOpenAPIFile checks that the document served (openapi.json, embedded)
// is the one GenerateOpenAPI makes from the routes and types now.
func TestOpenAPIFile(t *testing.T) {
	got, err := GenerateOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("openapi.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, openAPI) {
		t.Errorf("openapi.json is not what GenerateOpenAPI makes now: run go test ./service/httpapi -run TestOpenAPIFile -update")
	}
}

// TestOpenAPIRoutes checks that every documented operation is a route
// the server registers: a doc left behind by a removed route is an error
// (a route without a doc fails GenerateOpenAPI).
func TestOpenAPIRoutes(t *testing.T) {
	t.Parallel()
	served := map[string]bool{}
	for _, rt := range documentedRoutes() {
		served[rt.pattern] = true
	}
	for p := range opDocs() {
		if !served[p] {
			t.Errorf("opDocs documents %s, which the server does not serve", p)
		}
	}
}

// docSchemas is the served document's components/schemas.
func docSchemas(t *testing.T) map[string]map[string]any {
	t.Helper()
	var doc struct {
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Components.Schemas
}

// resolve follows a schema to the object schema it names: through $ref
// and a nullable allOf wrapper.
func resolve(t *testing.T, schemas map[string]map[string]any, s map[string]any) map[string]any {
	t.Helper()
	for {
		if all, ok := s["allOf"].([]any); ok && len(all) == 1 {
			s = all[0].(map[string]any)
			continue
		}
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		if schemas[name] == nil {
			t.Fatalf("$ref %s names no schema", ref)
		}
		s = schemas[name]
	}
}

// TestOpenAPIFieldsMatchTypes walks, for every operation, the Go type
// its handler decodes and the types it answers, and the schemas the
// served document gives them: every JSON name of a Go field must be a
// property of the schema, and every property a Go field, down through
// nested records and lists. A request schema leaves out only the
// server-set fields (id, created_at, updated_at).
func TestOpenAPIFieldsMatchTypes(t *testing.T) {
	t.Parallel()
	schemas := docSchemas(t)
	var doc struct {
		Paths map[string]map[string]struct {
			RequestBody struct {
				Content map[string]struct {
					Schema map[string]any `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
			Responses map[string]struct {
				Content map[string]struct {
					Schema map[string]any `json:"schema"`
				} `json:"content"`
			} `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		t.Fatal(err)
	}
	for pattern, d := range opDocs() {
		method, path, _ := strings.Cut(pattern, " ")
		op, ok := doc.Paths[path][strings.ToLower(method)]
		if !ok {
			t.Errorf("%s: not in the served document", pattern)
			continue
		}
		if d.body != nil {
			s := op.RequestBody.Content["application/json"].Schema
			if s == nil {
				t.Errorf("%s: the handler reads %v, the document has no request body", pattern, d.body)
			} else {
				matchFields(t, pattern+" request", schemas, d.body, s, false, map[reflect.Type]bool{})
			}
		}
		for _, a := range d.answers {
			if a.typ == nil {
				continue
			}
			s := op.Responses[itoa(a.status)].Content["application/json"].Schema
			if s == nil {
				t.Errorf("%s: the handler answers %d %v, the document has no schema for it", pattern, a.status, a.typ)
				continue
			}
			matchFields(t, pattern+" "+itoa(a.status), schemas, a.typ, s, true, map[reflect.Type]bool{})
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// matchFields compares Go type typ with schema s.
func matchFields(t *testing.T, where string, schemas map[string]map[string]any, typ reflect.Type, s map[string]any, answer bool, seen map[reflect.Type]bool) {
	t.Helper()
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	s = resolve(t, schemas, s)
	switch {
	case typ == dateType || typ == timeType:
		return
	case typ.Kind() == reflect.Slice && typ.Elem().Kind() == reflect.Uint8:
		if s["type"] != "string" || s["format"] != "byte" {
			t.Errorf("%s: Go %v is base64 text, the schema %v", where, typ, s)
		}
		return
	case typ.Kind() == reflect.Slice:
		items, _ := s["items"].(map[string]any)
		if s["type"] != "array" || items == nil {
			t.Errorf("%s: Go %v is a list, the schema %v", where, typ, s)
			return
		}
		if items["type"] == "object" && items["properties"] == nil && items["$ref"] == nil && items["allOf"] == nil {
			t.Errorf("%s: list of %v has bare object items", where, typ.Elem())
		}
		matchFields(t, where+"[]", schemas, typ.Elem(), items, answer, seen)
		return
	case typ.Kind() != reflect.Struct:
		return
	}
	if seen[typ] {
		return
	}
	seen[typ] = true
	props, _ := s["properties"].(map[string]any)
	goNames := map[string]bool{}
	for _, f := range jsonFields(typ) {
		if !answer && readOnly(typ, f.name) {
			continue
		}
		goNames[f.name] = true
		p, ok := props[f.name].(map[string]any)
		if !ok {
			t.Errorf("%s: %v field %s is not in the schema", where, typ, f.name)
			continue
		}
		matchFields(t, where+"."+f.name, schemas, f.typ, p, true, seen)
	}
	for name := range props {
		if !goNames[name] {
			t.Errorf("%s: schema property %s is no JSON field of %v", where, name, typ)
		}
	}
}

// TestErrorSchema checks that the error body the server writes uses only
// names the document's Error schema has.
func TestErrorSchema(t *testing.T) {
	t.Parallel()
	s := docSchemas(t)["Error"]
	errProps := s["properties"].(map[string]any)["error"].(map[string]any)["properties"].(map[string]any)
	for _, f := range jsonFields(reflect.TypeFor[errorBody]()) {
		if f.name != "error" {
			t.Errorf("errorBody writes %s; the Error schema has only error", f.name)
		}
	}
	for _, f := range jsonFields(reflect.TypeFor[errorDetail]()) {
		if errProps[f.name] == nil {
			t.Errorf("errorDetail writes %s, which the Error schema does not have", f.name)
		}
	}
}

// TestEnumsValid checks that every documented value of a closed set is
// one the type's Valid accepts.
func TestEnumsValid(t *testing.T) {
	t.Parallel()
	for typ, values := range enums() {
		for _, v := range values {
			x := reflect.New(typ).Elem()
			x.SetString(v)
			if m := x.MethodByName("Valid"); m.IsValid() && !m.Call(nil)[0].Bool() {
				t.Errorf("%v: documented value %q is not Valid", typ, v)
			}
		}
	}
}
