package httpapi

import (
	"maps"
	"reflect"
	"slices"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/incidents"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/licensing"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/permits"
)

// opDoc documents one route of the API: the OpenAPI document is built
// from these, the route table (roles) and the Go types named here.
type opDoc struct {
	id      string // operationId
	tag     string
	summary string
	desc    string // after the roles line
	params  []param
	// body is the type the handler decodes (nil: no body); patch marks
	// a PATCH body, every field optional.
	body  reflect.Type
	patch bool
	// answers by status; a nil type is an answer without a body.
	answers []answer
	// idempotent routes take Idempotency-Key.
	idempotent bool
	// rawBody lists the media types of a body taken as bytes, not JSON
	// (a photograph).
	rawBody []string
	// ambiguous marks a route that reads chip text: a text that reads
	// as several chips is 422 with the candidates.
	ambiguous bool
}

type answer struct {
	status int
	desc   string
	typ    reflect.Type
}

// param is a query parameter ({id} path parameters are added from the
// pattern).
type param struct {
	name, desc string
	typ        string // "string", "integer", "boolean"
	format     string
	enum       []string
}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

// paging are the parameters of every list.
var paging = []param{
	{name: "offset", typ: "integer", desc: "Skip this many."},
	{name: "limit", typ: "integer", desc: "At most this many (at most 500, default 50)."},
}

func listOf(ps ...param) []param { return append(append([]param(nil), paging...), ps...) }

// ok, created and none are the usual answers.
func ok(t reflect.Type) []answer      { return []answer{{200, "OK", t}} }
func created(t reflect.Type) []answer { return []answer{{201, "Created", t}} }
func none(desc string) []answer       { return []answer{{204, desc, nil}} }

// jurisdictions are the profile ids a jurisdiction parameter takes.
var jurisdictions = []string{"minneapolis", "chanhassen"}

// jobStates is the state parameter of the job and batch lists.
var jobStates = param{name: "state", typ: "string", desc: "Only jobs in this state.",
	enum: enumOf(service.JobQueued, service.JobSent, service.JobDone, service.JobFailed)}

// opDocs documents every route of allRoutes, by pattern.
// TestOpenAPIRoutes checks both lists agree.
func opDocs() map[string]opDoc {
	m := coreDocs()
	for _, more := range []map[string]opDoc{moneyDocs(), permitDocs(), animalReportDocs()} {
		maps.Copy(m, more)
	}
	return m
}

// coreDocs documents the records, lookup, tags and admin routes.
func coreDocs() map[string]opDoc {
	return map[string]opDoc{
		"GET /api/v1/lookup": {id: "lookup", tag: "lookup", summary: "Look up a chip or a licence tag",
			params: []param{
				{name: "chip", typ: "string", desc: "Chip number in any form a reader or a person writes."},
				{name: "tag", typ: "integer", desc: "Tag (register) number."},
				{name: "jurisdiction", typ: "string", desc: "Profile id of the tag's city.", enum: jurisdictions},
				{name: "year", typ: "integer", desc: "Tag year; default this year."},
			},
			answers: ok(typeOf[lookup.Answer]()), ambiguous: true},
		"GET /api/v1/animals/{id}/record": {id: "getAnimalRecord", tag: "lookup", summary: "The lookup answer for an animal",
			answers: ok(typeOf[lookup.Answer]())},

		"GET /api/v1/scans/stream": {id: "streamScans", tag: "scans", summary: "Scan events (Server-Sent Events)",
			params: []param{
				{name: "reader", typ: "string", desc: "Only this reader's scans."},
				{name: "since", typ: "integer", desc: "Replay retained events after this id (as Last-Event-ID)."},
			},
			answers: []answer{{200, "An event stream: one `scan` event per scan, its data a ScanEvent.", nil}}},
		"GET /api/v1/scans": {id: "findScans", tag: "scans", summary: "Recent scans",
			params:  listOf(param{name: "site", typ: "string", desc: "Only this site."}),
			answers: ok(typeOf[list[*service.Scan]]())},
		"POST /api/v1/scans": {id: "postScan", tag: "scans", summary: "Submit a scan (handheld, keyboard wedge)",
			body: typeOf[scanRequest](), answers: created(typeOf[lookup.ScanEvent]()), ambiguous: true},

		"POST /api/v1/owners": {id: "createOwner", tag: "records", summary: "Create an owner",
			body: typeOf[service.Owner](), answers: created(typeOf[service.Owner]()), idempotent: true},
		"GET /api/v1/owners": {id: "findOwners", tag: "records", summary: "Find owners",
			params:  listOf(param{name: "name", typ: "string", desc: "Name contains."}),
			answers: ok(typeOf[list[*service.Owner]]())},
		"GET /api/v1/owners/{id}": {id: "getOwner", tag: "records", summary: "An owner",
			answers: ok(typeOf[service.Owner]())},
		"PATCH /api/v1/owners/{id}": {id: "updateOwner", tag: "records", summary: "Change an owner",
			desc: "Only the fields sent change; a field left out (or null) stays as it is.",
			body: typeOf[service.OwnerUpdate](), patch: true, answers: ok(typeOf[service.Owner]())},

		"POST /api/v1/animals": {id: "createAnimal", tag: "records", summary: "Create an animal",
			body: typeOf[service.Animal](), answers: created(typeOf[service.Animal]()), idempotent: true},
		"GET /api/v1/animals": {id: "findAnimals", tag: "records", summary: "Find animals",
			params: listOf(
				param{name: "name", typ: "string", desc: "Name contains."},
				param{name: "owner", typ: "integer", format: "int64", desc: "Owner id."}),
			answers: ok(typeOf[list[*service.Animal]]())},
		"GET /api/v1/animals/{id}": {id: "getAnimal", tag: "records", summary: "An animal",
			answers: ok(typeOf[service.Animal]())},
		"PATCH /api/v1/animals/{id}": {id: "updateAnimal", tag: "records", summary: "Change an animal",
			desc: "Only the fields sent change; a field left out (or null) stays as it is.",
			body: typeOf[service.AnimalUpdate](), patch: true, answers: ok(typeOf[service.Animal]())},
		"GET /api/v1/animals/{id}/chips": {id: "listAnimalChips", tag: "records", summary: "An animal's chips",
			answers: ok(typeOf[list[*service.Chip]]())},
		"POST /api/v1/animals/{id}/chips": {id: "addChip", tag: "records", summary: "Record a chip on an animal",
			body: typeOf[chipRequest](), answers: created(typeOf[service.Chip]()), ambiguous: true},
		"POST /api/v1/animals/{id}/photo": {id: "uploadAnimalPhoto", tag: "records", summary: "Upload an animal's photograph",
			desc: "The body is the image itself, JPEG, PNG, WebP or GIF (its type read from its first bytes); the server " +
				"names the file and answers the animal with its new photo. 404 when the server keeps no photographs.",
			rawBody: []string{"image/jpeg", "image/png", "image/webp", "image/gif"}, answers: created(typeOf[service.Animal]())},
		"DELETE /api/v1/chips/{id}": {id: "removeChip", tag: "records", summary: "Remove a chip entered in error",
			answers: none("Removed")},

		"POST /api/v1/licences": {id: "issueLicence", tag: "licences",
			summary: "Issue a licence: fee and expiry from the jurisdiction's rules, next tag number",
			body:    typeOf[licensing.LicenceRequest](), answers: created(typeOf[licensing.IssuedLicence]()), idempotent: true},
		"GET /api/v1/licences/{id}": {id: "getLicence", tag: "licences", summary: "A licence",
			answers: ok(typeOf[service.Licence]())},
		"POST /api/v1/licences/{id}/renew": {id: "renewLicence", tag: "licences",
			summary: "Renew a licence: a new licence and tag for the next term",
			body:    typeOf[licensing.RenewRequest](), answers: created(typeOf[licensing.IssuedLicence]()), idempotent: true},
		"POST /api/v1/licences/{id}/revoke": {id: "revokeLicence", tag: "licences", summary: "Revoke a licence",
			answers: none("Revoked")},
		"GET /api/v1/animals/{id}/vaccinations": {id: "listAnimalVaccinations", tag: "records", summary: "An animal's rabies vaccinations",
			answers: ok(typeOf[list[*service.RabiesVaccination]]())},
		"POST /api/v1/vaccinations": {id: "createVaccination", tag: "records", summary: "Record a rabies vaccination",
			body: typeOf[service.RabiesVaccination](), answers: created(typeOf[service.RabiesVaccination]()), idempotent: true},

		"POST /api/v1/bites": {id: "createBite", tag: "records", summary: "Record a bite; the quarantine the rules order is created with it",
			body: typeOf[service.BiteIncident](), answers: created(typeOf[incidents.Bite]())},
		"POST /api/v1/quarantines": {id: "createQuarantine", tag: "records", summary: "Order a quarantine",
			body: typeOf[service.Quarantine](), answers: created(typeOf[service.Quarantine]())},
		"POST /api/v1/quarantines/{id}/release": {id: "releaseQuarantine", tag: "records", summary: "Release a quarantine",
			body: typeOf[releaseRequest](), answers: none("Released")},
		"POST /api/v1/impoundments": {id: "createImpoundment", tag: "records", summary: "Impound an animal; hold-until from the rules",
			body: typeOf[service.Impoundment](), answers: created(typeOf[service.Impoundment]())},
		"GET /api/v1/impoundments": {id: "findImpoundments", tag: "records", summary: "Find impoundments",
			params:  listOf(param{name: "open", typ: "boolean", desc: "true: held now; false: ended."}),
			answers: ok(typeOf[list[*service.Impoundment]]())},
		"PATCH /api/v1/impoundments/{id}": {id: "updateImpoundment", tag: "records", summary: "Change an impoundment (notice, disposition, fees)",
			desc: "Only the fields sent change; a field left out (or null) stays as it is.",
			body: typeOf[service.ImpoundUpdate](), patch: true, answers: ok(typeOf[service.Impoundment]())},
		"POST /api/v1/designations": {id: "createDesignation", tag: "records", summary: "Declare an animal dangerous or potentially dangerous",
			body: typeOf[service.DangerousDesignation](), answers: created(typeOf[service.DangerousDesignation]())},
		"PATCH /api/v1/designations/{id}": {id: "updateDesignation", tag: "records", summary: "Change a designation (registration steps, rescission)",
			desc: "Only the fields sent change; a field left out (or null) stays as it is.",
			body: typeOf[service.DesignationUpdate](), patch: true, answers: ok(typeOf[service.DangerousDesignation]())},

		"POST /api/v1/licences/{id}/tag": {id: "queueTag", tag: "tags", summary: "Queue the licence's tag for printing (label) or engraving",
			body:    typeOf[tagRequest](),
			answers: []answer{{201, "Queued", typeOf[service.Job]()}, {200, "Already queued: the existing job", typeOf[service.Job]()}}},
		"GET /api/v1/jobs": {id: "findJobs", tag: "tags", summary: "Print and engrave jobs",
			params: listOf(jobStates,
				param{name: "licence", typ: "integer", format: "int64", desc: "Only this licence's jobs."}),
			answers: ok(typeOf[list[*service.Job]]())},
		"GET /api/v1/jobs/{id}": {id: "getJob", tag: "tags", summary: "A print or engrave job",
			answers: ok(typeOf[service.Job]())},
		"POST /api/v1/jobs/{id}/reprint": {id: "reprintJob", tag: "tags", summary: "Reprint a job's tag with the same number",
			answers: ok(typeOf[service.Job]())},
		"POST /api/v1/tag-batches": {id: "createTagBatch", tag: "tags", summary: "Reserve and queue a batch of pre-numbered tags",
			body:    typeOf[jobs.BatchRequest](),
			answers: []answer{{201, "Created", typeOf[service.TagBatch]()}, {200, "Same key: the existing batch", typeOf[service.TagBatch]()}}},
		"GET /api/v1/tag-batches": {id: "findTagBatches", tag: "tags", summary: "Tag batches",
			params:  listOf(jobStates, param{name: "year", typ: "integer", desc: "Only this tag year."}),
			answers: ok(typeOf[list[*service.TagBatch]]())},
		"GET /api/v1/tag-batches/{id}": {id: "getTagBatch", tag: "tags", summary: "A tag batch",
			answers: ok(typeOf[service.TagBatch]())},
		"POST /api/v1/tag-batches/{id}/resume": {id: "resumeTagBatch", tag: "tags", summary: "Resume a stopped tag batch",
			answers: ok(typeOf[service.TagBatch]())},
		"GET /api/v1/devices": {id: "listDevices", tag: "tags", summary: "Printers and engravers and their state",
			answers: ok(typeOf[list[jobs.Status]]())},

		"GET /api/v1/tokens": {id: "listTokens", tag: "admin", summary: "List tokens",
			answers: ok(typeOf[list[*service.Token]]())},
		"POST /api/v1/tokens": {id: "createToken", tag: "admin", summary: "Create a token; the secret is in the answer, once",
			body: typeOf[tokenRequest](), answers: created(typeOf[tokenAnswer]())},
		"DELETE /api/v1/tokens/{id}": {id: "revokeToken", tag: "admin", summary: "Revoke a token",
			answers: none("Revoked")},
		"GET /api/v1/audit": {id: "findAuditEvents", tag: "admin", summary: "Audit events, newest first",
			params: listOf(
				param{name: "actor", typ: "string", desc: "Token name."},
				param{name: "entity", typ: "string", desc: "Entity kind."}),
			answers: ok(typeOf[list[*service.AuditEvent]]())},
	}
}

// enumOf lists the values of a closed set, the empty value left out (a
// field left empty is omitted).
func enumOf[T ~string](vs ...T) []string {
	var out []string
	for _, v := range vs {
		if v != "" {
			out = append(out, string(v))
		}
	}
	return out
}

// enums are the closed sets: a field of one of these types takes only
// the values listed.
func enums() map[reflect.Type][]string {
	return map[reflect.Type][]string{
		typeOf[service.Species]():          enumOf(service.Dog, service.Cat, service.Ferret, service.Other),
		typeOf[service.Sex]():              enumOf(service.Male, service.Female),
		typeOf[service.Programme]():        enumOf(service.ServiceDog, service.FosterProgramme),
		typeOf[service.VaccineType]():      enumOf(service.VaccineKilled, service.VaccineModifiedLive),
		typeOf[service.LicenceStatus]():    enumOf(service.LicenceActive, service.LicenceRevoked, service.LicenceReplaced),
		typeOf[service.Issuer]():           enumOf(service.IssuerOffice, service.IssuerClinic),
		typeOf[service.LicenceKind]():      enumOf(service.KindLicence, service.KindOffLeash),
		typeOf[service.ReplaceReason]():    enumOf(service.TagLost, service.TagStolen),
		typeOf[service.DangerLevel]():      enumOf(service.Dangerous, service.PotentiallyDangerous),
		typeOf[service.Disposition]():      enumOf(service.Redeemed, service.Adopted, service.Transferred, service.Euthanised, service.Died),
		typeOf[service.Victim]():           enumOf(service.VictimPerson, service.VictimAnimal),
		typeOf[service.QuarantineKind]():   enumOf(service.QuarantineBite, service.QuarantineExposure),
		typeOf[service.QuarantinePlace]():  enumOf(service.AtHome, service.AtShelter, service.AtVet),
		typeOf[service.JobKind]():          enumOf(service.JobPrint, service.JobEngrave),
		typeOf[service.JobState]():         enumOf(service.JobQueued, service.JobSent, service.JobDone, service.JobFailed),
		typeOf[service.Role]():             enumOf(service.RoleAdmin, service.RoleClinic, service.RoleIntake, service.RoleOfficer, service.RolePublic),
		typeOf[chipid.Kind]():              enumOf(chipid.KindISO, chipid.KindAVID, chipid.KindFECAVA, chipid.KindTrovan),
		typeOf[service.PaymentMethod]():    enumOf(service.MethodCash, service.MethodCard, service.MethodCheque, service.MethodWaiver),
		typeOf[service.PaymentKind]():      enumOf(service.KindPayment, service.KindRefund, service.KindVoid),
		typeOf[service.PermitKind]():       enumOf(service.PermitKennel, service.PermitStable, service.PermitOffLeash, service.PermitMultiAnimal, service.PermitBusiness),
		typeOf[service.PermitState]():      permitStates,
		typeOf[service.AnimalReportKind](): enumOf(service.ReportBite, service.ReportRabiesSuspect),
	}
}

// fieldEnums are the closed sets the lookup answer writes as plain
// strings: the states package rules computes (rules.LicenceState,
// RabiesState, Severity, FeeState) and the lookup's own alerts. The
// answer check of the HTTP tests holds every answer to these lists.
func fieldEnums() map[reflect.Type]map[string]namedEnum {
	fee := namedEnum{"FeeState", []string{"set", "not-set", "conflict"}}
	return map[reflect.Type]map[string]namedEnum{
		typeOf[lookup.Licence]():     {"status": {"LicenceState", []string{"current", "expired", "none", "not-required", "not-licensed"}}},
		typeOf[lookup.Rabies]():      {"status": {"RabiesState", []string{"current", "expired", "none", "undetermined", "not-required"}}},
		typeOf[lookup.AlertDetail](): {"severity": {"Severity", []string{"info", "warning", "danger"}}},
		typeOf[lookup.FeeLine]():     {"state": fee},
		// Money and permits: computed states and the codes a body takes.
		typeOf[service.Charge](): {
			"subject_kind": {"SubjectKind", []string{service.SubjectLicence, service.SubjectImpoundment, service.SubjectPermit}},
			"outcome":      {"DepositOutcome", []string{service.DepositRefunded, service.DepositForfeited}}},
		typeOf[money.Deposit]():         {"state": {"DepositState", []string{"held", "overdue", service.DepositRefunded, service.DepositForfeited}}},
		typeOf[service.Exemption]():     {"kind": {"ExemptionKind", []string{"service-dog", "foster"}}},
		typeOf[service.Permit]():        {"status": {"PermitStatus", append(slices.Clone(permitStates), "lapsed", "revocation_noticed")}},
		typeOf[permits.Action]():        {"action": {"PermitActionKind", []string{"revoke", "suspend", "not_renew"}}},
		typeOf[permits.AppealOrder]():   {"order": {"AppealOrderKind", []string{"uphold", "lift", "conditions"}}},
		typeOf[permits.AgreementView](): {"status": {"AgreementStatus", []string{"due", "broken", "fulfilled"}}},
	}
}

// requiredOnCreate are the fields a create body must carry: those the
// type's Validate (or the handler) refuses the body without.
func requiredOnCreate() map[reflect.Type][]string {
	return map[reflect.Type][]string{
		typeOf[service.Owner]():                {"name"},
		typeOf[service.Animal]():               {"species"},
		typeOf[service.RabiesVaccination]():    {"animal_id", "date"},
		typeOf[service.BiteIncident]():         {"animal_id", "date", "victim"},
		typeOf[service.Quarantine]():           {"animal_id", "kind", "place", "start", "end"},
		typeOf[service.Impoundment]():          {"animal_id", "jurisdiction", "intake_on"},
		typeOf[service.DangerousDesignation](): {"animal_id", "level", "jurisdiction", "declared_on"},
		typeOf[licensing.LicenceRequest]():     {"animal_id", "jurisdiction"},
		typeOf[chipRequest]():                  {"chip"},
		typeOf[tokenRequest]():                 {"name", "role"},
		typeOf[releaseRequest]():               {"on"},
		typeOf[scanRequest]():                  {"reader", "chip"},
		typeOf[jobs.BatchRequest]():            {"jurisdiction", "year", "count"},
		typeOf[service.Exemption]():            {"animal_id", "kind", "section", "approved_by"},
	}
}

// serverSet are fields, besides id, created_at and updated_at, that the
// server computes whatever a create body says: readOnly in answers, left
// out of the create schema.
func serverSet() map[reflect.Type][]string {
	return map[reflect.Type][]string{
		// The hold comes from the jurisdiction's rules (62.50, 5-75).
		typeOf[service.Impoundment](): {"hold_until"},
	}
}

// schemaNames renames a few schemas whose Go name says too little.
func schemaNames() map[reflect.Type]string {
	return map[reflect.Type]string{
		typeOf[lookup.Answer]():                "LookupAnswer",
		typeOf[service.RabiesVaccination]():    "Vaccination",
		typeOf[service.BiteIncident]():         "Bite",
		typeOf[service.DangerousDesignation](): "Designation",
		typeOf[incidents.Bite]():               "RecordedBite",
		typeOf[tokenAnswer]():                  "IssuedToken",
		typeOf[jobs.Status]():                  "DeviceStatus",
		typeOf[paymentBody]():                  "PaymentRequest",
		typeOf[paymentAnswer]():                "Receipt",
		typeOf[redemptionCharges]():            "RedemptionChargesRequest",
		typeOf[redemptionAnswer]():             "RedemptionCharges",
		typeOf[cashUpAnswer]():                 "CashUp",
		typeOf[closeBody]():                    "CashUpCloseRequest",
		typeOf[salesAnswer]():                  "SalesReport",
		typeOf[intakesAnswer]():                "IntakeReport",
		typeOf[depositBody]():                  "DepositRequest",
		typeOf[money.Statement]():              "Remittance",
		typeOf[permits.Request]():              "PermitRequest",
		typeOf[permits.Item]():                 "DueItem",
		typeOf[permits.Action]():               "PermitAction",
		typeOf[permits.Statement]():            "SterilisationStatement",
		typeOf[dateBody]():                     "DateRequest",
		typeOf[contactsBody]():                 "ContactsRequest",
		typeOf[permits.Modification]():         "RestrictionsRequest",
	}
}
