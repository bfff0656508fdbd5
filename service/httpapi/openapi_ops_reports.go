package httpapi

import (
	"github.com/chipdesk/chipdesk/service/incidents"
	"github.com/chipdesk/chipdesk/service/money"
)

// animalReportDocs documents animalReportRoutes.
func animalReportDocs() map[string]opDoc {
	params := []param{
		{name: "as_of", typ: "string", format: "date", desc: "The day the report is for; today when absent."},
		{name: "format", typ: "string", enum: []string{"csv", "svg"}, desc: "csv: the rows as text/csv; svg: the bar chart (image/svg+xml); JSON when absent."},
	}
	return map[string]opDoc{
		"GET /api/v1/reports/dangerous-register": {id: "getDangerousRegister", tag: "money",
			summary: "The dangerous-animal register: every designation in force and each requirement's state (met, due, overdue, not_applicable)",
			desc:    "Most overdue first; the CSV has a row per animal and requirement.",
			params:  params, answers: ok(typeOf[incidents.Register]())},
		"GET /api/v1/reports/rabies-lapsed": {id: "getRabiesLapsed", tag: "money",
			summary: "Licensed animals whose rabies vaccination has lapsed, or which have none though the rules require one",
			desc:    "Judged by the rabies rule of the licence's jurisdiction; longest lapsed first. 404 when the server keeps no payments.",
			params:  params, answers: ok(typeOf[money.RabiesReport]())},
	}
}
