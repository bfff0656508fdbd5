package web

import (
	"fmt"
	"strings"
)

// glossary is the one place the pages turn the codes of the records and
// the rules ("not-set", "potentially-dangerous", "missed") into the words
// a clerk reads. Every template shows a code through the "say" helper,
// which looks it up here; one state has one word on every page (a
// deadline "missed" and a requirement "overdue" both read "Overdue").
// words_test.go checks every code the application layer defines has its
// entry.
var glossary = map[string]string{
	// Licence states (service.LicenceStatus, rules.LicenceState).
	"active":       "Active",
	"current":      "Current",
	"expired":      "Expired",
	"none":         "None on file",
	"not-required": "Not required",
	"not-licensed": "Not licensed here",
	"replaced":     "Replaced",
	"revoked":      "Revoked",
	// Rabies states (rules.RabiesState); "current", "expired", "none"
	// and "not-required" above.
	"undetermined": "Period not set by law",
	// Requirement and deadline states (rules.RequirementStatus,
	// rules.DeadlineState).
	"met":            "Met",
	"met-late":       "Met late",
	"due":            "Due",
	"overdue":        "Overdue",
	"missed":         "Overdue",
	"open":           "Required, no deadline",
	"not_applicable": "Does not apply",
	// Fee states (rules.FeeState).
	"set":      "Set by the ordinance",
	"not-set":  "Set by the city's fee resolution",
	"conflict": "Unclear in the ordinance",
	// Dangerous-animal levels (service.DangerLevel).
	"dangerous":             "Dangerous",
	"potentially-dangerous": "Potentially dangerous",
	// Dangerous-animal requirements (rules profiles' names).
	"microchip":     "Microchip",
	"sterilisation": "Spay or neuter",
	"photo":         "Photograph",
	"registration":  "Registration",
	"sign":          "Warning sign",
	"insurance":     "Insurance or bond",
	// Quarantines (service.QuarantineKind, service.QuarantinePlace).
	"bite":     "Bite",
	"exposure": "Rabies exposure",
	"home":     "At the owner's home",
	"shelter":  "At the shelter",
	"vet":      "At a veterinarian",
	// Bite victims (service.Victim).
	"person": "A person",
	"animal": "An animal",
	// Impound outcomes (service.Disposition).
	"held":        "Held",
	"redeemed":    "Redeemed by the owner",
	"adopted":     "Adopted out",
	"transferred": "Transferred",
	"euthanised":  "Euthanised",
	"died":        "Died",
	// Jobs (service.JobKind, service.JobState).
	"new":         "New licence",
	"duplicate":   "Duplicate tag",
	"reprint":     "Made again",
	"print":       "Print",
	"engrave":     "Engrave",
	"queued":      "Waiting",
	"sent":        "Sent to the device",
	"done":        "Done",
	"failed":      "Failed",
	"unconfirmed": "Sent, not confirmed",
	"check":       "Check the device",
	// Who sold a licence (service.Issuer), roles (service.Role).
	"office":  "Licensing office",
	"clinic":  "Clinic",
	"admin":   "Administrator",
	"intake":  "Intake desk",
	"officer": "Officer",
	"public":  "Public",
	// Replaced tags (service.ReplaceReason), vaccines
	// (service.VaccineType), species, sex, programmes.
	"lost":          "Lost",
	"stolen":        "Stolen",
	"killed":        "Killed virus",
	"modified-live": "Modified live virus",
	"dog":           "Dog",
	"cat":           "Cat",
	"ferret":        "Ferret",
	"other":         "Other animal",
	"male":          "Male",
	"female":        "Female",
	"service-dog":   "Service dog in training",
	"foster":        "Foster (awaiting adoption)",
	"licence":       "Licence",
	// Permits (service.PermitKind, service.PermitState).
	"kennel":          "Kennel",
	"stable":          "Stable",
	"off_leash":       "Off-leash area",
	"multi_animal":    "More than three animals",
	"animal_business": "Animal business",
	"pending":         "Pending",
	"granted":         "Granted",
	"denied":          "Denied",
	"suspended":       "Suspended",
	"not_renewed":     "Not renewed",
	"cancelled":       "Cancelled",
	// Fee lines (rules' fee codes, service.Charge.Kind).
	"unaltered":             "not spayed or neutered",
	"altered":               "spayed or neutered",
	"young":                 "young animal",
	"exempt-service-dog":    "service dog, exempt",
	"exempt-foster":         "foster, exempt",
	"duplicate-tag":         "duplicate tag",
	"impound":               "impound fee",
	"board":                 "board",
	"licence-penalty":       "licence penalty at release",
	"licence-late":          "late licence fee",
	"sterilisation-deposit": "sterilisation deposit",
	"bite-case":             "rabies hold fees",
	"dwelling-permit":       "multiple-animal permit",
	// Money (service.PaymentKind, service.PaymentMethod, subjects).
	"payment":       "Payment",
	"refund":        "Refund",
	"void":          "Void",
	"cash":          "Cash",
	"card":          "Card",
	"cheque":        "Cheque",
	"waiver":        "Waived",
	"impoundment":   "Impoundment",
	"permit":        "Permit",
	"dangerous-dog": "Dangerous-dog tag",
	"off-leash":     "Off-leash permit",
}

// say is the glossary's word for a code (any string type); a code it
// does not know is shown with its dashes as spaces and a capital, never
// as the raw code.
func say(v any) string {
	s := fmt.Sprint(v)
	if w, ok := glossary[s]; ok {
		return w
	}
	s = strings.NewReplacer("-", " ", "_", " ").Replace(s)
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
