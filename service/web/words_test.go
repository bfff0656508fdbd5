package web

import (
	"fmt"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
)

// TestGlossaryComplete: every code the records and the rules define has
// its plain word, so no page shows a raw code ("not-set",
// "potentially-dangerous"), and one state reads the same everywhere.
func TestGlossaryComplete(t *testing.T) {
	codes := []any{
		service.LicenceActive, service.LicenceRevoked, service.LicenceReplaced,
		rules.LicenceCurrent, rules.LicenceExpired, rules.LicenceNone, rules.LicenceNotRequired, rules.LicenceNotLicensed,
		rules.RabiesCurrent, rules.RabiesExpired, rules.RabiesNone, rules.RabiesUndetermined, rules.RabiesNotRequired,
		rules.RequirementMet, rules.RequirementDue, rules.RequirementOverdue, rules.RequirementNotApplicable,
		rules.DeadlineMet, rules.DeadlineMetLate, rules.DeadlineDue, rules.DeadlineMissed, rules.DeadlineOpen,
		rules.FeeSet, rules.FeeNotSet, rules.FeeConflict,
		service.Dangerous, service.PotentiallyDangerous,
		service.QuarantineBite, service.QuarantineExposure, service.AtHome, service.AtShelter, service.AtVet,
		service.VictimPerson, service.VictimAnimal,
		service.Redeemed, service.Adopted, service.Transferred, service.Euthanised, service.Died,
		service.JobPrint, service.JobEngrave, service.JobQueued, service.JobSent, service.JobDone, service.JobFailed, service.JobUnconfirmed, service.JobCheck,
		service.IssuerOffice, service.IssuerClinic, service.RoleAdmin, service.RoleClinic, service.RoleIntake, service.RoleOfficer, service.RolePublic,
		service.TagLost, service.TagStolen, service.VaccineKilled, service.VaccineModifiedLive,
		service.Dog, service.Cat, service.Ferret, service.Other, service.Male, service.Female, service.ServiceDog, service.FosterProgramme,
		service.KindLicence, service.KindOffLeash,
		service.PermitKennel, service.PermitStable, service.PermitOffLeash, service.PermitMultiAnimal, service.PermitBusiness,
		service.PermitPending, service.PermitGranted, service.PermitDenied, service.PermitSuspended, service.PermitRevoked, service.PermitNotRenewed, service.PermitCancelled,
		service.KindPayment, service.KindRefund, service.KindVoid, service.MethodCash, service.MethodCard, service.MethodCheque, service.MethodWaiver,
		service.SubjectLicence, service.SubjectImpoundment, service.SubjectPermit,
	}
	for _, c := range codes {
		if _, ok := glossary[fmt.Sprint(c)]; !ok {
			t.Errorf("glossary has no word for %T %q", c, c)
		}
	}
	// One state, one word.
	if say(rules.DeadlineMissed) != say(rules.RequirementOverdue) {
		t.Errorf("missed reads %q, overdue %q: one state, two words", say(rules.DeadlineMissed), say(rules.RequirementOverdue))
	}
	for _, tt := range []struct{ in, want string }{
		{"not-set", "Set by the city's fee resolution"}, {"potentially-dangerous", "Potentially dangerous"}, {"no-such-code", "No such code"}, {"", ""},
	} {
		if got := say(tt.in); got != tt.want {
			t.Errorf("say(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
