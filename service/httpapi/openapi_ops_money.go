package httpapi

import (
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/permits"
)

// subjectParams name the subject of the charges asked about: one of
// them is required.
var subjectParams = []param{
	{name: "licence_id", typ: "integer", format: "int64", desc: "The licence's charges (one of licence_id, impoundment_id, permit_id is required)."},
	{name: "impoundment_id", typ: "integer", format: "int64", desc: "The impoundment's charges."},
	{name: "permit_id", typ: "integer", format: "int64", desc: "The permit's charges."},
	{name: "adoption_id", typ: "integer", format: "int64", desc: "The adoption agreement's charges (the 64.140 deposit)."},
}

// periodParams are the from and to days of a report, both required.
var periodParams = []param{
	{name: "from", typ: "string", format: "date", desc: "First day (required)."},
	{name: "to", typ: "string", format: "date", desc: "Last day (required)."},
}

// csvFormat asks a report for its CSV alternative.
func csvFormat(values ...string) param {
	return param{name: "format", typ: "string", enum: values,
		desc: "csv: the report as text/csv instead of JSON."}
}

// moneyDocs documents moneyRoutes (charges, payments, deposits, reports).
func moneyDocs() map[string]opDoc {
	noMoney := "404 when the server keeps no payments."
	return map[string]opDoc{
		"GET /api/v1/charges": {id: "findCharges", tag: "money", summary: "The charges raised on a licence, impoundment or permit",
			desc: noMoney, params: subjectParams,
			answers: ok(typeOf[list[*service.Charge]]())},
		"GET /api/v1/settlement": {id: "getSettlement", tag: "money", summary: "Whether a subject's charges are settled",
			desc: noMoney, params: subjectParams, answers: ok(typeOf[money.Settlement]())},
		"POST /api/v1/impoundments/{id}/charges": {id: "chargeRedemption", tag: "money",
			summary: "Raise a redemption's charges, with the amounts of fees set by resolution",
			desc:    "entered_cents gives, by fee code, the amounts the law leaves to a resolution; not_set lists the codes still without one. " + noMoney,
			body:    typeOf[redemptionCharges](), answers: created(typeOf[redemptionAnswer]())},
		"POST /api/v1/permits/{id}/charges": {id: "chargePermit", tag: "money",
			summary: "Raise a permit's charges, with the amounts of fees set by resolution",
			desc: "A permit's fees are charged on its holder when it is granted or renewed, and a stable's inspection fee at each annual " +
				"registration (registration: true); entered_cents gives, by fee code, the amounts the law leaves to a resolution " +
				"(Chanhassen 5-18(c), 5-102, 5-105(a); Minneapolis chapter 68); not_set lists the codes still without one. " + noMoney,
			body: typeOf[permitCharges](), answers: created(typeOf[redemptionAnswer]())},
		"POST /api/v1/adoption-agreements/{id}/charges": {id: "chargeAdoption", tag: "money",
			summary: "Raise an adoption's sterilisation deposit, with the amount set by the commissioner of health",
			desc: "Minneapolis 64.140(a)(2): entered_cents gives adoption-deposit when the profile does not set it; not_set lists it " +
				"while it has no amount. " + noMoney,
			body: typeOf[redemptionCharges](), answers: created(typeOf[redemptionAnswer]())},
		"POST /api/v1/payments": {id: "createPayment", tag: "money", summary: "Take a payment (or record a waiver) against charges",
			desc: "Charges are settled in the order given; a part payment settles the first first. " + noMoney,
			body: typeOf[paymentBody](),
			answers: []answer{{201, "Taken", typeOf[paymentAnswer]()},
				{200, "Same Idempotency-Key: the payment already taken", typeOf[paymentAnswer]()}},
			idempotent: true},
		"GET /api/v1/payments/{id}": {id: "getPayment", tag: "money", summary: "A receipt: the payment and the charges it settled",
			desc: "A clinic sees only its own site's payments. " + noMoney, answers: ok(typeOf[paymentAnswer]())},
		"POST /api/v1/payments/{id}/refund": {id: "refundPayment", tag: "money", summary: "Give back (part of) a payment",
			desc: "lines name the charges given back; without them the payment's lines are given back in order. " + noMoney,
			body: typeOf[paymentBody](),
			answers: []answer{{201, "Refunded", typeOf[paymentAnswer]()},
				{200, "Same Idempotency-Key: the refund already recorded", typeOf[paymentAnswer]()}}},
		"POST /api/v1/payments/{id}/void": {id: "voidPayment", tag: "money", summary: "Void a payment taken by mistake, the same day, in full",
			desc: noMoney, body: typeOf[paymentBody](),
			answers: []answer{{201, "Voided", typeOf[paymentAnswer]()},
				{200, "Same Idempotency-Key: the void already recorded", typeOf[paymentAnswer]()}}},
		"GET /api/v1/reports/cash-up": {id: "getCashUp", tag: "money", summary: "A day's takings by method and fee",
			desc: "A clinic sees only its own site. format=csv answers the same as text/csv (a download). " + noMoney,
			params: []param{
				{name: "date", typ: "string", format: "date", desc: "The business day (required)."},
				{name: "site", typ: "string", desc: "Only this site (a clinic: its own)."},
				{name: "till", typ: "string", desc: "Only this till."},
				csvFormat("csv"),
			},
			answers: ok(typeOf[cashUpAnswer]())},
		"POST /api/v1/reports/cash-up/close": {id: "closeCashUp", tag: "money", summary: "Close a till's day: nothing more is recorded on it",
			desc: noMoney, body: typeOf[closeBody](), answers: created(typeOf[service.DayClose]())},
		"GET /api/v1/reports/remittance": {id: "getRemittance", tag: "money", summary: "A clinic's monthly remittance (Minneapolis 64.30)",
			desc: "A clinic sees only its own. " + noMoney,
			params: []param{
				{name: "clinic", typ: "string", desc: "The clinic's site (a clinic: its own)."},
				{name: "month", typ: "string", desc: "The month, YYYY-MM."},
			},
			answers: ok(typeOf[money.Statement]())},
		"GET /api/v1/reports/licences": {id: "getSalesReport", tag: "money", summary: "Licences sold in a period, by month, city, species and fee",
			desc:    "format=csv answers the rows as text/csv, format=svg a bar chart of licences sold by month (image/svg+xml). " + noMoney,
			params:  append(append([]param(nil), periodParams...), csvFormat("csv", "svg")),
			answers: ok(typeOf[salesAnswer]())},
		"GET /api/v1/reports/intakes": {id: "getIntakeReport", tag: "money", summary: "Intakes and how stays ended, by month",
			desc:    "format=csv answers the rows as text/csv. " + noMoney,
			params:  append(append([]param(nil), periodParams...), csvFormat("csv")),
			answers: ok(typeOf[intakesAnswer]())},
		"GET /api/v1/deposits": {id: "findDeposits", tag: "money", summary: "Sterilisation deposits awaiting proof (Minneapolis 62.40(c)), soonest due first",
			desc: noMoney, answers: ok(typeOf[list[money.Deposit]]())},
		"POST /api/v1/deposits/{id}/refund": {id: "refundDeposit", tag: "money", summary: "Refund a sterilisation deposit on proof of sterilisation",
			desc: "The id is the deposit's charge. " + noMoney, body: typeOf[depositBody](),
			answers: created(typeOf[service.Payment]())},
		"POST /api/v1/deposits/{id}/forfeit": {id: "forfeitDeposit", tag: "money", summary: "Forfeit a sterilisation deposit after 45 days without proof",
			desc: "The id is the deposit's charge. " + noMoney, answers: ok(typeOf[service.Charge]())},
		"POST /api/v1/exemptions": {id: "createExemption", tag: "money", summary: "Grant an animal a fee exemption (service dog, foster)",
			desc: noMoney, body: typeOf[service.Exemption](), answers: created(typeOf[service.Exemption]())},
		"GET /api/v1/animals/{id}/exemptions": {id: "listAnimalExemptions", tag: "money", summary: "An animal's fee exemptions",
			answers: ok(typeOf[list[*service.Exemption]]())},
	}
}

// permitDocs documents permitRoutes (permits, adoption agreements,
// animal reports).
func permitDocs() map[string]opDoc {
	noPermits := "404 when the server keeps no permits."
	permit := ok(typeOf[service.Permit]())
	return map[string]opDoc{
		"GET /api/v1/permits": {id: "findPermits", tag: "permits", summary: "Find permits", desc: noPermits,
			params: listOf(
				param{name: "kind", typ: "string", desc: "Only this kind.", enum: enumOf(service.PermitKennel, service.PermitStable, service.PermitOffLeash, service.PermitMultiAnimal, service.PermitBusiness)},
				param{name: "jurisdiction", typ: "string", desc: "Only this jurisdiction."},
				param{name: "state", typ: "string", desc: "Only this state.", enum: permitStates},
				param{name: "holder", typ: "string", desc: "The holder's name, exactly."},
				param{name: "owner_id", typ: "integer", format: "int64", desc: "Only this owner's."},
				param{name: "animal_id", typ: "integer", format: "int64", desc: "Only this animal's."}),
			answers: ok(typeOf[list[*service.Permit]]())},
		"POST /api/v1/permits": {id: "applyPermit", tag: "permits", summary: "Apply for a permit; granted when nothing is pending",
			desc: "A refusal under the law is 409 citing its section; the denied permit is stored. " + noPermits,
			body: typeOf[permits.Request](), answers: created(typeOf[service.Permit]()), idempotent: true},
		"GET /api/v1/permits/due": {id: "findPermitsDue", tag: "permits", summary: "The officer's list: permits, agreements and reports needing action, soonest first",
			desc: noPermits, answers: ok(typeOf[list[permits.Item]]())},
		"GET /api/v1/permits/{id}": {id: "getPermit", tag: "permits", summary: "A permit", desc: noPermits, answers: permit},
		"POST /api/v1/permits/{id}/application": {id: "updatePermitApplication", tag: "permits", summary: "Replace a pending permit's application",
			desc: noPermits, body: typeOf[service.PermitApplication](), answers: permit},
		"POST /api/v1/permits/{id}/inspection": {id: "inspectPermit", tag: "permits", summary: "Record the inspection before grant (5-18(d), 5-103, 64.100(c)), or the reinspection after a horse's escape (5-87(b))",
			desc: "A stable suspended after an escape is granted again once the reinspection passed and fee_paid is true (5-87(b)). " + noPermits, body: typeOf[permits.Inspection](), answers: permit},
		"POST /api/v1/permits/{id}/escape": {id: "recordHorseEscape", tag: "permits", summary: "Record a horse's escape from its stable area (Chanhassen 5-87)",
			desc: "recovery_cents below the least of 5-87(a) is 400; an escape recovered by the city suspends the stable permit until reinspection and payment (5-87(b)). " + noPermits,
			body: typeOf[service.HorseEscape](), answers: permit},
		"POST /api/v1/permits/{id}/grant": {id: "grantPermit", tag: "permits", summary: "Grant a pending permit",
			desc: noPermits, body: typeOf[dateBody](), answers: permit},
		"POST /api/v1/permits/{id}/action": {id: "actOnPermit", tag: "permits", summary: "Revoke, suspend or not renew a permit on a ground of its kind",
			desc: noPermits, body: typeOf[permits.Action](), answers: permit},
		"POST /api/v1/permits/{id}/appeal": {id: "appealPermit", tag: "permits", summary: "File a notice of appeal (5-18(f))",
			desc: noPermits, body: typeOf[dateBody](), answers: permit},
		"POST /api/v1/permits/{id}/appeal-order": {id: "decidePermitAppeal", tag: "permits", summary: "Record the council's order on an appeal (5-18(f)(1)-(3))",
			desc: noPermits, body: typeOf[permits.AppealOrder](), answers: permit},
		"POST /api/v1/permits/{id}/contacts": {id: "changePermitContacts", tag: "permits", summary: "Change a kennel's designated contact persons (5-18.2(b)(1))",
			desc: noPermits, body: typeOf[contactsBody](), answers: permit},
		"POST /api/v1/permits/{id}/restrictions": {id: "modifyPermitRestrictions", tag: "permits", summary: "Modify a 64.100 permit's restrictions (Minneapolis 64.100(b))",
			desc: "In effect ten days after the written notice mailed on notice_on (64.100(b)); until then the restrictions before it stay. A permit not granted or lapsed is 409; another kind is 400. " + noPermits,
			body: typeOf[permits.Modification](), answers: permit},
		"POST /api/v1/permits/{id}/renew": {id: "renewPermit", tag: "permits", summary: "Renew a permit: a new permit for the next term",
			desc: noPermits, body: typeOf[permits.Request](), answers: permit},
		"POST /api/v1/permits/{id}/registration": {id: "registerPermit", tag: "permits", summary: "Record a stable's annual registration (5-105)",
			desc: noPermits, body: typeOf[dateBody](), answers: permit},

		"POST /api/v1/adoption-agreements": {id: "createAdoptionAgreement", tag: "permits",
			summary: "Record a shelter adoption's sterilisation agreement and deposit (Minneapolis 64.140)",
			desc:    noPermits, body: typeOf[permits.AgreementRequest](), answers: created(typeOf[service.AdoptionAgreement]())},
		"GET /api/v1/adoption-agreements": {id: "findAdoptionAgreements", tag: "permits", summary: "Adoption agreements with their status",
			desc: noPermits,
			params: []param{
				{name: "open", typ: "boolean", desc: "true: only those not yet sterilised."},
				{name: "animal_id", typ: "integer", format: "int64", desc: "Only this animal's."}},
			answers: ok(typeOf[list[permits.AgreementView]]())},
		"POST /api/v1/adoption-agreements/{id}/sterilised": {id: "recordSterilisation", tag: "permits",
			summary: "Record the veterinarian's statement of sterilisation (64.140(b))",
			desc:    noPermits, body: typeOf[permits.Statement](), answers: ok(typeOf[service.AdoptionAgreement]())},

		"POST /api/v1/animal-reports": {id: "createAnimalReport", tag: "permits", summary: "Take in a bite (66.60) or rabies-suspect (66.70) report",
			desc: noPermits, body: typeOf[permits.ReportRequest](), answers: created(typeOf[service.AnimalReport]())},
		"GET /api/v1/animal-reports": {id: "findAnimalReports", tag: "permits", summary: "Bite and rabies-suspect reports",
			desc:    noPermits,
			params:  []param{{name: "open", typ: "boolean", desc: "true: only those still open."}},
			answers: ok(typeOf[list[*service.AnimalReport]]())},
		"POST /api/v1/animal-reports/{id}/close": {id: "closeAnimalReport", tag: "permits", summary: "Close a report",
			desc: noPermits, body: typeOf[dateBody](), answers: ok(typeOf[service.AnimalReport]())},
	}
}

// permitStates are the stored states of a permit.
var permitStates = enumOf(service.PermitPending, service.PermitGranted, service.PermitDenied, service.PermitSuspended,
	service.PermitRevoked, service.PermitNotRenewed, service.PermitCancelled)
