package httpapi

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/lookup"
)

// openAPI is the OpenAPI 3 description of the API, as GenerateOpenAPI
// makes it from the route table, opDocs and the handlers' Go types.
// TestOpenAPIFile checks the file is what GenerateOpenAPI gives now
// (go test -run TestOpenAPIFile -update rewrites it).
//
//go:embed openapi.json
var openAPI []byte

// OpenAPI returns the OpenAPI 3 document served at /api/v1/openapi.json.
func OpenAPI() []byte { return append([]byte(nil), openAPI...) }

func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "max-age=300")
	_, _ = w.Write(openAPI)
}

// documentedRoutes are the authenticated routes the document describes:
// every one the server registers.
func documentedRoutes() []route {
	return (&Server{}).allRoutes()
}

var pathParam = regexp.MustCompile(`\{([a-z_]+)\}`)

// GenerateOpenAPI builds the OpenAPI 3 document of the API.
func GenerateOpenAPI() ([]byte, error) {
	docs := opDocs()
	routes := documentedRoutes()
	for _, rt := range routes {
		if _, ok := docs[rt.pattern]; !ok {
			return nil, fmt.Errorf("httpapi: route %s has no opDoc", rt.pattern)
		}
	}

	// Every struct the bodies and answers reach, named before building.
	ss := newSchemaSet(enums(), requiredOnCreate(), fieldEnums())
	all := map[reflect.Type]bool{}
	for _, d := range docs {
		if d.body != nil {
			ss.structs(d.body, all)
		}
		for _, a := range d.answers {
			if a.typ != nil {
				ss.structs(a.typ, all)
			}
		}
	}
	ss.structs(reflect.TypeFor[errorDetail](), all) // the candidates of an ambiguous chip
	for _, t := range syncTypes() {
		ss.structs(t, all)
	}
	ss.name(all, schemaNames())

	paths := map[string]map[string]any{}
	ids := map[string]string{}
	for _, rt := range routes {
		d := docs[rt.pattern]
		method, path, _ := strings.Cut(rt.pattern, " ")
		if prev, dup := ids[d.id]; dup {
			return nil, fmt.Errorf("httpapi: operationId %s on %s and %s", d.id, prev, rt.pattern)
		}
		ids[d.id] = rt.pattern
		roles := append([]service.Role{service.RoleAdmin}, rt.roles...)
		slices.Sort(roles)
		names := make([]string, len(roles))
		for i, r := range roles {
			names[i] = string(r)
		}
		desc := "Roles: " + strings.Join(names, ", ") + "."
		if d.desc != "" {
			desc += " " + d.desc
		}
		if d.idempotent {
			desc += " Send Idempotency-Key to make a retry safe."
		}
		op := map[string]any{
			"operationId": d.id,
			"summary":     d.summary,
			"description": desc,
			"tags":        []string{d.tag},
			"x-roles":     names,
			"security":    []any{map[string]any{"bearer": []string{}}},
		}
		var params []any
		for _, m := range pathParam.FindAllStringSubmatch(path, -1) {
			params = append(params, map[string]any{"name": m[1], "in": "path", "required": true,
				"description": "Record id.", "schema": map[string]any{"type": "integer", "format": "int64"}})
		}
		for _, p := range d.params {
			sc := map[string]any{"type": p.typ}
			if p.format != "" {
				sc["format"] = p.format
			}
			if p.enum != nil {
				sc["enum"] = p.enum
			}
			params = append(params, map[string]any{"name": p.name, "in": "query", "required": false,
				"description": p.desc, "schema": sc})
		}
		if d.idempotent {
			params = append(params, map[string]any{"$ref": "#/components/parameters/IdempotencyKey"})
		}
		if params != nil {
			op["parameters"] = params
		}
		if d.body != nil {
			sd := createSide
			if d.patch {
				sd = patchSide
			}
			op["requestBody"] = map[string]any{"required": true,
				"content": map[string]any{"application/json": map[string]any{"schema": ss.ref(d.body, sd)}}}
		}
		if d.rawBody != nil {
			content := map[string]any{}
			for _, mt := range d.rawBody {
				content[mt] = map[string]any{"schema": map[string]any{"type": "string", "format": "binary"}}
			}
			op["requestBody"] = map[string]any{"required": true, "content": content}
		}
		resps := errorAnswers(method, path, d)
		for _, a := range d.answers {
			r := map[string]any{"description": a.desc}
			switch {
			case a.typ != nil:
				r["content"] = map[string]any{"application/json": map[string]any{"schema": ss.schema(a.typ)}}
			case a.status == http.StatusOK:
				// The scan stream.
				r["content"] = map[string]any{"text/event-stream": map[string]any{"schema": map[string]any{"type": "string"}}}
			}
			if d.idempotent {
				r["headers"] = map[string]any{ReplayedHeader: map[string]any{
					"description": `"true" when the answer is the stored answer of an earlier request with the same Idempotency-Key.`,
					"schema":      map[string]any{"type": "string"}}}
			}
			resps[fmt.Sprint(a.status)] = r
		}
		op["responses"] = resps
		if paths[path] == nil {
			paths[path] = map[string]any{}
		}
		paths[path][strings.ToLower(method)] = op
	}
	ss.defs["Error"] = errorSchema(ss)
	addOpsPaths(paths)
	addSyncPaths(paths, ss)

	doc := map[string]any{
		"openapi": "3.0.3",
		"info": map[string]any{
			"title":   "chipdesk API",
			"version": "1.0.0",
			"description": "Microchip and licence-tag lookup, licensing and animal-control records for Minneapolis " +
				"and Chanhassen. Every call under /api/v1 needs `Authorization: Bearer TOKEN`; the role of the token " +
				"decides what it may do (x-roles on each operation). The public role's lookup carries no owner data. " +
				"Every JSON name is snake_case. Errors are JSON `{\"error\": {\"code\", \"message\", \"field\", \"candidates\"}}` " +
				"(`field` names the field at fault when there is one; `candidates`, on a 422 ambiguous answer, the chips " +
				"a chip number could be) and never carry internal detail.",
		},
		"servers": []any{map[string]any{"url": "/"}},
		"tags": []any{
			map[string]any{"name": "lookup", "description": "Chip and tag lookups"},
			map[string]any{"name": "scans", "description": "Reader scans"},
			map[string]any{"name": "records", "description": "Owners, animals, chips, vaccinations and casework"},
			map[string]any{"name": "licences", "description": "Licences and their tags"},
			map[string]any{"name": "tags", "description": "Printing and engraving tags"},
			map[string]any{"name": "money", "description": "Charges, payments, deposits and takings reports"},
			map[string]any{"name": "permits", "description": "Permits, adoption agreements and animal reports"},
			map[string]any{"name": "admin", "description": "Tokens and the audit log"},
			map[string]any{"name": "sync", "description": "Officers' handhelds: push events recorded offline, pull the offline copy"},
			map[string]any{"name": "ops", "description": "Health, metrics and this document"},
		},
		"paths": paths,
		"components": map[string]any{
			"securitySchemes": map[string]any{"bearer": map[string]any{"type": "http", "scheme": "bearer"}},
			"schemas":         ss.defs,
			"responses":       errorResponses(),
			"parameters": map[string]any{"IdempotencyKey": map[string]any{
				"name": "Idempotency-Key", "in": "header", "required": false,
				"description": "Makes the request safe to retry (draft-ietf-httpapi-idempotency-key-header): 1 to 255 " +
					"printable ASCII characters, unique per request, scoped to the caller's token. The key is stored with " +
					"the answer in the transaction that creates the record. A retry with the same key, path and body " +
					"within 24 hours gets the stored answer (the same record, for a licence the same tag number; header " +
					"Idempotent-Replayed: true) and creates nothing; the same key with another path or body, or while " +
					"the first request is still in progress, is 409. Failed requests are not stored and may be retried " +
					"with their key. A malformed key is 400.",
				"schema": map[string]any{"type": "string", "minLength": 1, "maxLength": 255}}},
		},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// errorCodes are the values of error.code (service's error codes).
var errorCodes = []string{service.EINVALID, service.EAMBIGUOUS, service.EUNAUTHORIZED, service.EFORBIDDEN,
	service.ENOTFOUND, service.ECONFLICT, service.EINTERNAL}

// errorSchema is the body of every error answer (errorBody):
// {"error": {"code", "message", "field", "candidates"}}, field only when
// one field of the request is at fault, candidates only on an ambiguous
// chip number (lookup.AmbiguousChipError). TestErrorSchema checks
// errorBody writes no other name.
func errorSchema(ss *schemaSet) map[string]any {
	return map[string]any{
		"type": "object", "required": []string{"error"},
		"properties": map[string]any{"error": map[string]any{
			"type": "object", "required": []string{"code", "message"},
			"properties": map[string]any{
				"code":    map[string]any{"type": "string", "enum": errorCodes, "description": "What kind of error; the HTTP status follows from it."},
				"message": map[string]any{"type": "string", "description": "What went wrong, for a clerk to read."},
				"field":   map[string]any{"type": "string", "description": "The request field at fault (its JSON name, or the query parameter), when one is."},
				"candidates": map[string]any{"type": "array", "items": ss.schema(reflect.TypeFor[lookup.Chip]()),
					"description": "With code ambiguous: every chip the chip number could be; the caller chooses one and asks again."},
			},
		}},
	}
}

// errorKinds are the error answers every API operation may give.
var errorKinds = []struct {
	status     int
	name, desc string
}{
	{400, "Invalid", "Malformed request or broken rule"},
	{401, "Unauthorized", "No, unknown, expired or revoked token"},
	{403, "Forbidden", "The token's role may not do this"},
	{404, "NotFound", "No such record"},
	{409, "Conflict", "Conflicts with the current state"},
	{413, "TooLarge", "Request body over the limit"},
	{422, "Ambiguous", "The chip number reads as more than one chip: error.code ambiguous, error.candidates lists them"},
	{500, "Internal", "Internal error (details logged, never sent)"},
}

// errorAnswers are the error answers an operation can give: 401, 403 and
// 500 any; 400 one that reads an id, a parameter or a body; 404 one that
// names a record or needs a part a server may lack (printers, readers);
// 409 a change; 413 one with a body; 422 one that reads chip text.
func errorAnswers(method, path string, d opDoc) map[string]any {
	can := map[int]bool{401: true, 403: true, 500: true}
	hasID := strings.Contains(path, "{")
	hasBody := d.body != nil || d.rawBody != nil
	can[400] = hasID || d.params != nil || hasBody || d.idempotent
	can[404] = hasID || d.tag == "tags" || d.tag == "lookup" || d.tag == "scans" || d.tag == "money" || d.tag == "permits"
	can[409] = method != http.MethodGet
	can[413] = hasBody
	can[422] = d.ambiguous
	m := map[string]any{}
	for _, e := range errorKinds {
		if can[e.status] {
			m[fmt.Sprint(e.status)] = map[string]any{"$ref": "#/components/responses/" + e.name}
		}
	}
	return m
}

func errorResponses() map[string]any {
	m := map[string]any{}
	for _, e := range errorKinds {
		m[e.name] = map[string]any{"description": e.desc,
			"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Error"}}}}
	}
	return m
}

// addOpsPaths documents the routes outside the role table: health,
// metrics and this document.
func addOpsPaths(paths map[string]map[string]any) {
	status := map[string]any{"type": "object", "required": []string{"status"},
		"properties": map[string]any{"status": map[string]any{"type": "string", "enum": []string{"ok", "unavailable"}}}}
	paths["/healthz"] = map[string]any{"get": map[string]any{
		"operationId": "health", "summary": "Health: the store answers", "tags": []string{"ops"}, "security": []any{},
		"responses": map[string]any{
			"200": map[string]any{"description": "OK", "content": map[string]any{"application/json": map[string]any{"schema": status}}},
			"503": map[string]any{"description": "Unavailable", "content": map[string]any{"application/json": map[string]any{"schema": status}}},
		}}}
	paths["/metrics"] = map[string]any{"get": map[string]any{
		"operationId": "metrics", "summary": "Prometheus metrics (admin)", "tags": []string{"ops"},
		"security": []any{map[string]any{"bearer": []string{}}}, "x-roles": []string{"admin"},
		"responses": map[string]any{
			"200": map[string]any{"description": "Prometheus text format", "content": map[string]any{"text/plain": map[string]any{"schema": map[string]any{"type": "string"}}}},
			"401": map[string]any{"$ref": "#/components/responses/Unauthorized"},
			"403": map[string]any{"$ref": "#/components/responses/Forbidden"},
		}}}
	paths["/api/v1/openapi.json"] = map[string]any{"get": map[string]any{
		"operationId": "openapi", "summary": "This document", "tags": []string{"ops"}, "security": []any{},
		"responses": map[string]any{
			"200": map[string]any{"description": "OpenAPI 3", "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"type": "object"}}}},
		}}}
}
