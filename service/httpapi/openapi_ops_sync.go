package httpapi

import (
	"reflect"

	"github.com/chipdesk/chipdesk/service"
)

// syncTypes are the Go types of the handhelds' sync endpoints, which the
// service mounts beside the API (service/offline's Handler at
// /api/v1/sync) rather than in the role table.
func syncTypes() []reflect.Type {
	return []reflect.Type{typeOf[service.DeviceEvent](), typeOf[service.DeviceOutcome](), typeOf[service.Record](), typeOf[service.DeviceKey]()}
}

// SyncServedBy marks (x-served-by) the operations that the sync handler
// serves, not this package's Server; their tests are service/offline's
// and chipdesk's.
const SyncServedBy = "service/offline"

// addSyncPaths documents the sync endpoints an officer's handheld calls
// (`chipdesk sync`; the conflict rules are in service/offline/README.md).
func addSyncPaths(paths map[string]map[string]any, ss *schemaSet) {
	security := []any{map[string]any{"bearer": []string{}}}
	roles := []string{"admin", "officer"}
	errs := func(codes ...string) map[string]any {
		m := map[string]any{}
		for _, c := range codes {
			name := map[string]string{"400": "Invalid", "401": "Unauthorized", "403": "Forbidden", "413": "TooLarge", "500": "Internal"}[c]
			m[c] = map[string]any{"$ref": "#/components/responses/" + name}
		}
		return m
	}
	gzip := map[string]any{"Content-Encoding": map[string]any{"description": "gzip when the request's Accept-Encoding takes it.",
		"schema": map[string]any{"type": "string", "enum": []string{"gzip"}}}}

	push := errs("400", "401", "403", "413", "500")
	push["200"] = map[string]any{"description": "One outcome per event, in order", "headers": gzip,
		"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"type": "array", "items": ss.schema(typeOf[service.DeviceOutcome]())}}}}
	paths["/api/v1/sync/events"] = map[string]any{"post": map[string]any{
		"operationId": "syncPushEvents", "summary": "Push the events a handheld recorded offline", "tags": []string{"sync"},
		"description": "Roles: admin, officer (a device token per handheld). One to 1000 events (none, or one without its id, " +
			"device, time or payload, is 400 for the whole push); each is applied once " +
			"through the application layer (a bite starts its quarantine, a pickup is an impoundment with its hold, a note " +
			"is on the animal's record, notes of GET /api/v1/animals/{id}/record), whatever the number of pushes: a repeat answers " +
			"applied with duplicate true and the record made the first time. An event the store refuses is rejected with its " +
			"code and message; an event id reused with other content is rejected (conflict). The actor is the token's; a user " +
			"the device named otherwise is kept as claimed_user. Every push is in the audit log (replica.push) under the token.",
		"x-roles": roles, "security": security, "x-served-by": SyncServedBy,
		"requestBody": map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{
			"schema": map[string]any{"type": "array", "maxItems": 1000, "items": ss.schema(typeOf[service.DeviceEvent]())}}}},
		"responses": push,
	}}

	line := map[string]any{"oneOf": []any{
		ss.schema(typeOf[service.Record]()),
		map[string]any{"type": "object", "required": []string{"deleted"}, "properties": map[string]any{
			"deleted": map[string]any{"type": "integer", "format": "int64", "description": "An animal to drop from the copy."}}},
		map[string]any{"type": "object", "required": []string{"end"}, "properties": map[string]any{
			"end":    map[string]any{"type": "boolean", "enum": []bool{true}},
			"cursor": map[string]any{"type": "string", "description": "The since= of the next pull."},
			"full":   map[string]any{"type": "boolean", "description": "The pull sent everything: the copy holds only what it sent."}}},
	}}
	pull := errs("401", "403", "500")
	pull["200"] = map[string]any{"description": "One JSON value per line: records, deletions, then the end line; a stream " +
		"without its end line was cut short and is to be discarded.", "headers": gzip,
		"content": map[string]any{"application/x-ndjson": map[string]any{"schema": line}}}
	paths["/api/v1/sync/replica"] = map[string]any{"get": map[string]any{
		"operationId": "syncPullReplica", "summary": "Pull the handheld's offline copy, or what changed in it", "tags": []string{"sync"},
		"description": "Roles: admin, officer. Each record is cut down to what the field needs (no owner address or " +
			"e-mail, no fees, no veterinary details). With since= (the cursor of the last pull's end line) only the animals " +
			"changed since are sent, each whole, and those to drop; since= empty, or a cursor this server cannot answer (another " +
			"database, a restore), sends everything and says full. Without since= at all, the answer is the whole copy closed " +
			`by {"end":true} (handhelds of earlier versions). Every pull is in the audit log (replica.pull) under the token.`,
		"x-roles": roles, "security": security, "x-served-by": SyncServedBy,
		"parameters": []any{map[string]any{"name": "since", "in": "query", "required": false,
			"description": "The cursor of the last pull; empty for a full pull.", "schema": map[string]any{"type": "string"}}},
		"responses": pull,
	}}

	key := errs("401", "403", "500")
	key["200"] = map[string]any{"description": "The device's data key (key base64, 256 bits) and its id",
		"headers": map[string]any{"Cache-Control": map[string]any{"schema": map[string]any{"type": "string", "enum": []string{"no-store"}}}},
		"content": map[string]any{"application/json": map[string]any{"schema": ss.schema(typeOf[service.DeviceKey]())}}}
	paths["/api/v1/sync/key"] = map[string]any{"get": map[string]any{
		"operationId": "syncDeviceKey", "summary": "Get the handheld's data key, which seals its offline copy", "tags": []string{"sync"},
		"description": "Roles: admin, officer. One random 256-bit key per device token, made on its first request and the " +
			"same after; a revoked token gets none (401). The handheld seals each record of its copy with it (AES-256-GCM) " +
			"and keeps it only wrapped by a key derived from the officer's PIN (Argon2id). The key is never logged: the audit " +
			"entry (replica.key) names its id under the token.",
		"x-roles": roles, "security": security, "x-served-by": SyncServedBy,
		"responses": key,
	}}
}
