package service

import (
	"context"
	"time"
)

// PermitKind names a licence or permit other than an animal's licence:
// Chanhassen kennel licences (5-18) and stable permits (5-101),
// Minneapolis off-leash permits (64.55), permits for more than three
// dogs or cats (64.100) and animal-business licences (chapter 68).
type PermitKind string

// Permit kinds.
const (
	PermitKennel      PermitKind = "kennel"          // Chanhassen 5-18
	PermitStable      PermitKind = "stable"          // Chanhassen 5-101
	PermitOffLeash    PermitKind = "off_leash"       // Minneapolis 64.55
	PermitMultiAnimal PermitKind = "multi_animal"    // Minneapolis 64.100
	PermitBusiness    PermitKind = "animal_business" // Minneapolis 68.10
)

// Valid reports whether k is a known kind.
func (k PermitKind) Valid() bool {
	switch k {
	case PermitKennel, PermitStable, PermitOffLeash, PermitMultiAnimal, PermitBusiness:
		return true
	}
	return false
}

// PermitState is the stored state of a permit. Whether a granted permit
// has lapsed is computed from ExpiresOn by the permits package.
type PermitState string

// Permit states.
const (
	PermitPending    PermitState = "pending"     // applied, not yet granted (inspection, missing items)
	PermitGranted    PermitState = "granted"     // in force
	PermitDenied     PermitState = "denied"      // refused (5-18.1, 5-103)
	PermitSuspended  PermitState = "suspended"   // 5-18(e)
	PermitRevoked    PermitState = "revoked"     // 5-18(e), 5-106, 64.55(c), 64.100(b)
	PermitNotRenewed PermitState = "not_renewed" // 5-18(e)
	PermitCancelled  PermitState = "cancelled"   // stable not registered by June 1 (5-105(b))
)

// Permit is one licence or permit with its application, its inspection,
// its term and its fee. Kind-specific application contents are in
// Application; the permits package says which are required.
type Permit struct {
	ID           int64      `json:"id"`
	Kind         PermitKind `json:"kind"`
	Jurisdiction string     `json:"jurisdiction"`
	// Class is private or commercial (kennel), resident or non_resident
	// (off-leash), premises or mobile_vehicle (animal business).
	Class    string      `json:"class,omitempty"`
	OwnerID  int64       `json:"owner_id,omitempty"`
	AnimalID int64       `json:"animal_id,omitempty"`
	Holder   string      `json:"holder"`
	Address  string      `json:"address,omitempty"`
	State    PermitState `json:"state"`
	// Reason is why a permit was denied, suspended, revoked or not
	// renewed, with the section.
	Reason    string `json:"reason,omitempty"`
	AppliedOn Date   `json:"applied,omitzero"`
	// InspectedOn and InspectionPassed record the inspection before
	// grant (5-18(d), 5-103, 64.100(c)).
	InspectedOn      Date  `json:"inspected,omitzero"`
	InspectionPassed *bool `json:"inspection_passed,omitempty"`
	IssuedOn         Date  `json:"issued,omitzero"`
	ExpiresOn        Date  `json:"expires,omitzero"`
	// RenewalDue is the day a renewal application (5-18(c)) or the
	// annual registration (5-105(a)) is due.
	RenewalDue Date `json:"renewal_due,omitzero"`
	// Pending lists, with their sections, what must happen before the
	// permit is granted.
	Pending []string `json:"pending,omitempty"`
	// Status is computed when read: the state, or "lapsed" for a granted
	// permit past its expiry, "cancelled" for a stable not registered
	// (5-105(b)).
	Status string `json:"status"`
	// ActionOn is the day of the last suspension, revocation,
	// non-renewal, cancellation or denial; EffectiveOn the day it takes
	// effect (64.100(b): ten days after notice).
	ActionOn    Date `json:"action_on,omitzero"`
	EffectiveOn Date `json:"effective,omitzero"`
	// AppealBy is the last day to file a notice of appeal, AppealFiledOn
	// when it was filed and HearingFrom the first day the council may
	// hear it (5-18(f)); HearingOn a hearing set (5-106).
	AppealBy      Date `json:"appeal_by,omitzero"`
	AppealFiledOn Date `json:"appeal_filed,omitzero"`
	HearingFrom   Date `json:"hearing_from,omitzero"`
	HearingOn     Date `json:"hearing,omitzero"`
	// RegisteredOn is the last annual registration (stable, 5-105).
	RegisteredOn Date `json:"registered,omitzero"`
	// Renews is the permit this one renews.
	Renews int64 `json:"renews,omitempty"`
	// FeeCents is the fee on the permit, nil when the law leaves it to a
	// resolution; FeeSource names the section.
	FeeCents  *int64 `json:"fee_cents"`
	FeeSource string `json:"fee_source,omitempty"`
	FeeNote   string `json:"fee_note,omitempty"`
	// SuspendedUnder names the section of a suspension lifted by
	// meeting what Pending lists (5-87(b): reinspection and payment for
	// it), empty for a suspension lifted only by an appeal.
	SuspendedUnder string `json:"suspended_under,omitempty"`
	// Escapes are a stable's recorded horse escapes (5-87).
	Escapes []HorseEscape `json:"escapes,omitempty"`
	// Exemption states an existing stable's exemption (5-88), or why it
	// is void.
	Exemption string `json:"exemption,omitempty"`
	// Modifications are the changes of a 64.100 permit's restrictions
	// by the commissioner of health (64.100(b)), oldest first; each is in
	// force from its EffectiveOn, and Application.Restrictions is the
	// text in force when read.
	Modifications []RestrictionChange `json:"modifications,omitempty"`
	// TagNumber is the off-leash registration number (64.55(b)).
	TagNumber   int               `json:"tag_number,omitempty"`
	Application PermitApplication `json:"application"`
	Site        string            `json:"site,omitempty"`

	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// HorseEscape is a horse that ran outside the confines of its stable
// area (Chanhassen 5-87(a)). RecoveredByCity is true when agents or
// employees of the city recovered it, which suspends the stable permit
// (5-87(b)); RecoveryCents is what the city charges for the recovery.
type HorseEscape struct {
	On              Date   `json:"on"`
	RecoveredByCity bool   `json:"recovered_by_city"`
	RecoveryCents   *int64 `json:"recovery_cents,omitempty"`
	Notes           string `json:"notes,omitempty"`
}

// RestrictionChange modifies the restrictions, limitations, conditions
// or prohibitions of a permit for more than three dogs or cats
// (Minneapolis 64.100(b): "modified from time to time"): in effect from
// and after ten days following the mailing of written notice by
// certified mail (NoticeOn), on EffectiveOn. Previous is the text it
// replaces.
type RestrictionChange struct {
	Restrictions string `json:"restrictions"`
	Previous     string `json:"previous"`
	NoticeOn     Date   `json:"notice_on"`
	EffectiveOn  Date   `json:"effective"`
	Notes        string `json:"notes,omitempty"`
}

// Person is a name with an address and a telephone number.
type Person struct {
	Name    string `json:"name"`
	Address string `json:"address,omitempty"`
	Phone   string `json:"phone,omitempty"`
}

// Conviction is an offence an applicant declares (5-18(b)(4)). Offence
// is one of the codes the jurisdiction's profile lists as refusal
// grounds (5-18.1(a)), or "other".
type Conviction struct {
	Offence string `json:"offence"`
	On      Date   `json:"on,omitzero"`
	Place   string `json:"place,omitempty"`
	Nature  string `json:"nature,omitempty"`
}

// PermitApplication is what an application states. Which fields are
// required depends on the kind and comes from the profile.
type PermitApplication struct {
	// Property describes the premises (5-18(b)(1)).
	Property string `json:"property,omitempty"`
	// Owner, Lessee, Operator of the premises (5-18(b)(2), 68.10(c)).
	PremisesOwner *Person `json:"premises_owner,omitempty"`
	Lessee        *Person `json:"lessee,omitempty"`
	Operator      *Person `json:"operator,omitempty"`
	// References are persons familiar with the applicant's character
	// (5-18(b)(3)), with their county.
	References []Reference `json:"references,omitempty"`
	// ConvictionsDeclared is true once the applicant answered the
	// question of 5-18(b)(4); Convictions lists the answers.
	ConvictionsDeclared bool         `json:"convictions_declared,omitempty"`
	Convictions         []Conviction `json:"convictions,omitempty"`
	// Contacts are the designated contact persons (5-18(b)(5), 5-18.2(b)(1)).
	Contacts []Person `json:"contacts,omitempty"`
	// PriorDenialOn / PriorRevocationOn: a same or similar licence
	// denied or revoked elsewhere (5-18.1(b)).
	PriorDenialOn     Date `json:"prior_denial_on,omitzero"`
	PriorRevocationOn Date `json:"prior_revocation_on,omitzero"`
	// InterestDocument is the lease, deed or contract for deed (5-18(b)).
	InterestDocument string `json:"interest_document,omitempty"`
	// BusinessRecords accompany a corporation's or partnership's
	// application (5-18(b)).
	Entity          string `json:"entity,omitempty"` // person, corporation, partnership, association
	BusinessRecords string `json:"business_records,omitempty"`
	Sworn           bool   `json:"sworn,omitempty"`
	// ZoningCompliant is false when the premises break a conditional use
	// permit or zoning restriction (5-18.1(d)); nil when not stated.
	ZoningCompliant *bool `json:"zoning_compliant,omitempty"`
	// AgriculturalCats: a private kennel of cats kept for rodent
	// control on agricultural land needs no licence (5-18(a)).
	Species          string `json:"species,omitempty"`
	AgriculturalLand bool   `json:"agricultural_land,omitempty"`
	RodentControl    bool   `json:"rodent_control,omitempty"`
	// Acres is the lot size (5-18.2(b)(3), 5-104(a)(1), (2)); Animals
	// the number of horses (stable) or dogs and cats (64.100).
	Acres   float64 `json:"acres,omitempty"`
	Animals int     `json:"animals,omitempty"`
	// Conditions met (stable 5-104(a)(3)-(10)), by condition code.
	Conditions []string `json:"conditions,omitempty"`
	// An existing stable (5-88): StabledSince is when horses were first
	// kept on the premises, Horses1975 how many were stabled there as of
	// April 25, 1975; EnclosureEnlarged is true when a housing enclosure
	// short of 5-104(a)(4) was enlarged, altered or increased;
	// SubdividedOn the parcel's subdivision, platting or replatting;
	// DiscontinuedFrom..DiscontinuedTo the longest break in the keeping
	// of horses (To zero: not resumed).
	StabledSince      Date `json:"stabled_since,omitzero"`
	Horses1975        int  `json:"horses_1975,omitempty"`
	EnclosureEnlarged bool `json:"enclosure_enlarged,omitempty"`
	SubdividedOn      Date `json:"subdivided_on,omitzero"`
	DiscontinuedFrom  Date `json:"discontinued_from,omitzero"`
	DiscontinuedTo    Date `json:"discontinued_to,omitzero"`
	// Off-leash (64.55(b), (c)): rabies verified, the dog's current
	// licence verified (residents), the rules signed; DogNumber is 1
	// for the owner's first dog.
	RabiesVerified  bool `json:"rabies_verified,omitempty"`
	LicenceVerified bool `json:"licence_verified,omitempty"`
	RulesSigned     bool `json:"rules_signed,omitempty"`
	DogNumber       int  `json:"dog_number,omitempty"`
	// Restrictions set on a 64.100 permit by the commissioner of health.
	Restrictions string `json:"restrictions,omitempty"`
	// Animal business (68.10): activities, vehicle, the health and
	// zoning reports and the council's authorisation.
	Activities         []string `json:"activities,omitempty"`
	Vehicle            string   `json:"vehicle,omitempty"`
	HealthApproved     bool     `json:"health_approved,omitempty"`
	ZoningReport       bool     `json:"zoning_report,omitempty"`
	CouncilAuthorised  bool     `json:"council_authorised,omitempty"`
	ApplicantResidence string   `json:"applicant_residence,omitempty"`
}

// Reference is a character reference (5-18(b)(3)).
type Reference struct {
	Person
	County string `json:"county"`
}

// Validate checks what a store needs.
func (p *Permit) Validate() error {
	switch {
	case !p.Kind.Valid():
		return Errorf(EINVALID, "Permit kind must be kennel, stable, off_leash, multi_animal or animal_business.")
	case p.Jurisdiction == "":
		return Errorf(EINVALID, "Permit jurisdiction required.")
	case p.State == "":
		return Errorf(EINVALID, "Permit state required.")
	case !p.ExpiresOn.IsZero() && !p.IssuedOn.IsZero() && p.ExpiresOn < p.IssuedOn:
		return Errorf(EINVALID, "Permit expires before it is issued.")
	case p.FeeCents != nil && *p.FeeCents < 0:
		return Errorf(EINVALID, "Fees cannot be negative.")
	}
	return nil
}

// PermitFilter selects permits. Zero fields do not filter.
type PermitFilter struct {
	Kind         PermitKind
	Jurisdiction string
	State        PermitState
	OwnerID      int64
	AnimalID     int64
	// Holder selects by the holder's name, exactly.
	Holder string
	// ExpiresBefore selects permits expiring before the date.
	ExpiresBefore Date
	Offset, Limit int
}

// AdoptionAgreement is the written sterilisation agreement of a dog or
// cat sold or released for adoption by the shelter (Minneapolis
// 64.140), with its deposit.
type AdoptionAgreement struct {
	ID           int64  `json:"id"`
	AnimalID     int64  `json:"animal_id"`
	Jurisdiction string `json:"jurisdiction"`
	Adopter      string `json:"adopter"`
	OwnerID      int64  `json:"owner_id,omitempty"`
	AdoptedOn    Date   `json:"adopted"`
	BornOn       Date   `json:"born,omitzero"`
	// DueOn is the day by which the animal must be sterilised.
	DueOn Date `json:"due"`
	// DueSource cites the rule of 64.140(a)(1) that set DueOn.
	DueSource    string `json:"due_source"`
	DepositCents *int64 `json:"deposit_cents"`
	// SterilisedOn and Veterinarian come from the veterinarian's signed
	// statement (64.140(b)); RemittedCents went to the veterinarian.
	SterilisedOn  Date   `json:"sterilised,omitzero"`
	Veterinarian  string `json:"veterinarian,omitempty"`
	StatementOn   Date   `json:"statement,omitzero"`
	RemittedCents *int64 `json:"remitted_cents,omitempty"`
	Site          string `json:"site,omitempty"`

	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// AnimalReportKind tells a bite report (66.60) from a rabies-suspect
// report (66.70).
type AnimalReportKind string

// Report kinds.
const (
	ReportBite          AnimalReportKind = "bite"           // 66.60
	ReportRabiesSuspect AnimalReportKind = "rabies_suspect" // 66.70
)

// AnimalReport is a report made to the commissioner of health: a bite
// (66.60, by a physician or any person: the names and addresses of the
// persons treated, with other information helpful in rabies control) or
// a rabies suspect (66.70, by a licensed veterinarian: the diagnosis).
// It opens an item on the officer's list until closed.
type AnimalReport struct {
	ID           int64            `json:"id"`
	Kind         AnimalReportKind `json:"kind"`
	Jurisdiction string           `json:"jurisdiction"`
	ReportedOn   Date             `json:"reported"`
	Reporter     Person           `json:"reporter"`
	// ReporterRole is physician, veterinarian or person.
	ReporterRole string `json:"reporter_role"`
	// Persons are the persons treated for the bite (66.60).
	Persons  []Person `json:"persons,omitempty"`
	AnimalID int64    `json:"animal_id,omitempty"`
	// AnimalDescription identifies an animal not on file.
	AnimalDescription string `json:"animal_description,omitempty"`
	IncidentOn        Date   `json:"incident,omitzero"`
	Location          string `json:"location,omitempty"`
	// Diagnosis is the veterinarian's (66.70).
	Diagnosis string `json:"diagnosis,omitempty"`
	Notes     string `json:"notes,omitempty"`
	// BiteID is the bite incident opened on the animal's record, and
	// QuarantineID the quarantine it started (66.40).
	BiteID       int64  `json:"bite_id,omitempty"`
	QuarantineID int64  `json:"quarantine_id,omitempty"`
	Open         bool   `json:"open"`
	ClosedOn     Date   `json:"closed,omitzero"`
	Site         string `json:"site,omitempty"`

	CreatedAt time.Time `json:"created_at"`
}

// PermitService stores permits, adoption agreements and reports.
type PermitService interface {
	// CreatePermit stores p and fills its id and stamps. An off-leash
	// permit is given the next registration number of its jurisdiction
	// and year when TagNumber is 0.
	CreatePermit(ctx context.Context, p *Permit) error
	// UpdatePermit stores every field of p but its id, kind and
	// created stamp; ENOTFOUND when there is no such permit.
	UpdatePermit(ctx context.Context, p *Permit) error
	FindPermitByID(ctx context.Context, id int64) (*Permit, error)
	FindPermits(ctx context.Context, f PermitFilter) ([]*Permit, int, error)

	CreateAdoptionAgreement(ctx context.Context, a *AdoptionAgreement) error
	UpdateAdoptionAgreement(ctx context.Context, a *AdoptionAgreement) error
	FindAdoptionAgreementByID(ctx context.Context, id int64) (*AdoptionAgreement, error)
	// FindAdoptionAgreements lists agreements; open selects those not
	// yet sterilised, animalID (when not 0) one animal's.
	FindAdoptionAgreements(ctx context.Context, open bool, animalID int64) ([]*AdoptionAgreement, error)

	CreateAnimalReport(ctx context.Context, r *AnimalReport) error
	UpdateAnimalReport(ctx context.Context, r *AnimalReport) error
	FindAnimalReportByID(ctx context.Context, id int64) (*AnimalReport, error)
	// FindAnimalReports lists reports, newest first; open selects those
	// not closed.
	FindAnimalReports(ctx context.Context, open bool) ([]*AnimalReport, error)
}
