package columns

// Tables lists the tables both stores keep, parents before children: the
// order in which a copy of one store into the other (chipdesk migrate)
// moves them. A table added to both schemas is added here; a store's
// tables not listed are its own (SQLite's lookup rows and audit outbox)
// and are never copied.
var Tables = []string{
	"owners", "animals", "chips", "licences", "tag_counters", "tag_batches", "vaccinations", "designations", "bites",
	"quarantines", "impoundments", "impound_release_fees", "scans", "audit_events", "audit_compactions", "audit_counts", "tokens", "users", "idempotency_keys",
	"jobs", "device_events", "device_keys", "animal_notes",
	"charges", "payments", "payment_lines", "day_closes", "exemptions", "reminders",
	"permits", "permit_counters", "adoption_agreements", "animal_reports",
}

// OrderBy is the ORDER BY clause that reads table's rows by its primary
// key: id, except for the tables keyed otherwise.
func OrderBy(table string) string {
	switch table {
	case "tag_counters":
		return " ORDER BY jurisdiction, year"
	case "idempotency_keys":
		return " ORDER BY actor, idem_key"
	case "impound_release_fees":
		return " ORDER BY impound_id"
	case "payment_lines":
		return " ORDER BY payment_id, charge_id"
	case "permit_counters":
		return " ORDER BY jurisdiction, kind, year"
	case "day_closes":
		return " ORDER BY site, till, on_day"
	case "audit_counts":
		return " ORDER BY compaction_id, day, " + AuditCountKey
	}
	return " ORDER BY id"
}
