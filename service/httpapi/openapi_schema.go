package httpapi

import (
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/chipdesk/chipdesk/service"
)

// The OpenAPI schemas are made from the Go types the handlers decode and
// encode, by reflection over their JSON names, so that a field the server
// reads or writes cannot be missing from the document.

// side is which way a schema describes a type.
type side int

const (
	// answerSide: what the server writes. Every field is listed; those
	// always written (no omitempty) are required; server-set ones are
	// readOnly.
	answerSide side = iota
	// createSide: a request body. Server-set fields are left out; the
	// required ones are those the handler refuses the body without.
	createSide
	// patchSide: a PATCH body. Every field is optional: a field sent is
	// changed, a field absent stays as it is.
	patchSide
)

// readOnlyFields are set by the server, never taken from a body.
var readOnlyFields = []string{"id", "created_at", "updated_at"}

// readOnly reports whether field name of struct t is set by the server:
// one of readOnlyFields, or one serverSet lists for t.
func readOnly(t reflect.Type, name string) bool {
	return slices.Contains(readOnlyFields, name) || slices.Contains(serverSet()[t], name)
}

// jsonField is one field of a struct as encoding/json sees it.
type jsonField struct {
	name string
	typ  reflect.Type
	omit bool // omitempty or omitzero: absent when empty
}

// jsonFields lists the JSON fields of struct type t in order, with
// embedded structs inlined as encoding/json does.
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				out = append(out, jsonFields(et)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		omit := strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,")
		out = append(out, jsonField{name: name, typ: f.Type, omit: omit})
	}
	return out
}

var (
	dateType = reflect.TypeFor[service.Date]()
	timeType = reflect.TypeFor[time.Time]()
)

// schemaSet builds the components/schemas of the document.
type schemaSet struct {
	defs     map[string]any
	names    map[reflect.Type]string // answer-side names, assigned before building
	enums    map[reflect.Type][]string
	required map[reflect.Type][]string // createSide required fields
	// fieldEnums are closed sets held in plain string fields.
	fieldEnums map[reflect.Type]map[string]namedEnum
}

// namedEnum is a closed set of a plain string field, and its schema's
// name.
type namedEnum struct {
	name   string
	values []string
}

func newSchemaSet(enums, required map[reflect.Type][]string, fieldEnums map[reflect.Type]map[string]namedEnum) *schemaSet {
	return &schemaSet{defs: map[string]any{}, names: map[reflect.Type]string{}, enums: enums, required: required, fieldEnums: fieldEnums}
}

// structs lists every named struct type reachable from t.
func (s *schemaSet) structs(t reflect.Type, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t == timeType || seen[t] {
		return
	}
	seen[t] = true
	for _, f := range jsonFields(t) {
		s.structs(f.typ, seen)
	}
}

// name assigns schema names: the Go type's name, exported, and a list
// of T is "TList". Two types of one name in different packages keep the
// service package's bare and take their package's name as a prefix.
func (s *schemaSet) name(all map[reflect.Type]bool, rename map[reflect.Type]string) {
	base := func(t reflect.Type) string {
		n := t.Name()
		if i := strings.IndexByte(n, '['); i >= 0 {
			// A generic list: named by its items' type.
			var item reflect.Type
			for _, f := range jsonFields(t) {
				if f.name == "items" {
					item = f.typ.Elem()
				}
			}
			for item.Kind() == reflect.Pointer {
				item = item.Elem()
			}
			return "<" + item.PkgPath() + "." + item.Name() + ">List"
		}
		return exported(n)
	}
	count := map[string]int{}
	for t := range all {
		count[base(t)]++
	}
	for t := range all {
		n := base(t)
		if r, ok := rename[t]; ok {
			n = r
		} else if count[n] > 1 && t.PkgPath() != reflect.TypeFor[service.Owner]().PkgPath() {
			n = exported(pkgName(t)) + n
		}
		s.names[t] = n
	}
	// Lists are named after their items' schema names.
	for t, n := range s.names {
		if strings.HasPrefix(n, "<") {
			item := n[1:strings.Index(n, ">")]
			for u, m := range s.names {
				if u.PkgPath()+"."+u.Name() == item {
					s.names[t] = m + "List"
				}
			}
		}
	}
}

// enumName is the schema name of a closed set: its Go name, prefixed by
// its package's unless that is package service.
func enumName(t reflect.Type) string {
	if t.PkgPath() == reflect.TypeFor[service.Owner]().PkgPath() {
		return t.Name()
	}
	return exported(pkgName(t)) + t.Name()
}

func pkgName(t reflect.Type) string {
	p := t.PkgPath()
	return p[strings.LastIndexByte(p, '/')+1:]
}

func exported(n string) string {
	r := []rune(n)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// ref returns a reference to the schema of struct t on side sd, building
// it the first time.
func (s *schemaSet) ref(t reflect.Type, sd side) map[string]any {
	n := s.names[t]
	switch {
	case sd == patchSide:
		// Update types are request-only: their own name.
	case sd == createSide && !strings.HasSuffix(n, "Request"):
		n = "New" + n
	}
	if _, ok := s.defs[n]; !ok {
		s.defs[n] = nil // placeholder against recursion
		s.defs[n] = s.object(t, sd)
	}
	return map[string]any{"$ref": "#/components/schemas/" + n}
}

// object is the schema of struct t.
func (s *schemaSet) object(t reflect.Type, sd side) map[string]any {
	props := map[string]any{}
	var required []string
	for _, f := range jsonFields(t) {
		ro := readOnly(t, f.name)
		if ro && sd != answerSide {
			continue
		}
		p := s.schema(f.typ)
		if e, ok := s.fieldEnums[t][f.name]; ok {
			s.defs[e.name] = map[string]any{"type": "string", "enum": e.values}
			p = map[string]any{"$ref": "#/components/schemas/" + e.name}
		}
		if sd == answerSide && f.typ.Kind() == reflect.Pointer && !f.omit || sd == patchSide {
			// A pointer written without omitempty may be null; a PATCH
			// takes null as "leave it as it is".
			p = s.nullable(p)
		}
		if ro {
			p = withKey(p, "readOnly", true)
		}
		props[f.name] = p
		if sd == answerSide && !f.omit {
			required = append(required, f.name)
		}
	}
	if sd == createSide {
		required = s.required[t]
	}
	o := map[string]any{"type": "object", "properties": props}
	if sd != answerSide {
		// The server refuses a body with a field it does not know.
		o["additionalProperties"] = false
	}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

// schema is the schema of a field of type t (answer side for structs:
// a body's nested records are the records themselves).
func (s *schemaSet) schema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == dateType:
		return map[string]any{"type": "string", "format": "date"}
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case s.enums[t] != nil:
		// A closed set is one schema, named for its Go type, so that a
		// generated client has one type for it.
		n := enumName(t)
		s.defs[n] = map[string]any{"type": "string", "enum": s.enums[t]}
		return map[string]any{"$ref": "#/components/schemas/" + n}
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int64, reflect.Uint64:
		return map[string]any{"type": "integer", "format": "int64"}
	case reflect.Int, reflect.Int32, reflect.Int16, reflect.Int8, reflect.Uint, reflect.Uint32, reflect.Uint16, reflect.Uint8:
		return map[string]any{"type": "integer"}
	case reflect.Float64, reflect.Float32:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			// encoding/json writes a []byte as base64 text.
			return map[string]any{"type": "string", "format": "byte"}
		}
		return map[string]any{"type": "array", "items": s.schema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": s.schema(t.Elem())}
	case reflect.Struct:
		return s.ref(t, answerSide)
	}
	panic("httpapi: no OpenAPI schema for " + t.String())
}

// nullable lets a schema be null as well (a pointer written without
// omitempty). A reference is wrapped, as OpenAPI 3.0 ignores siblings
// of $ref.
func (s *schemaSet) nullable(p map[string]any) map[string]any {
	if ref, ok := p["$ref"].(string); ok {
		// The wrapper carries the type of what it refers to (a closed
		// set is a string, a record an object).
		target, _ := s.defs[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
		typ := "object"
		if target != nil && target["type"] != nil {
			typ = target["type"].(string)
		}
		return map[string]any{"type": typ, "nullable": true, "allOf": []any{p}}
	}
	return withKey(p, "nullable", true)
}

func withKey(p map[string]any, k string, v any) map[string]any {
	q := make(map[string]any, len(p)+1)
	for k, v := range p {
		q[k] = v
	}
	q[k] = v
	return q
}
