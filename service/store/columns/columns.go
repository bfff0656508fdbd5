package columns

// Column lists, one per table, comma separated.
const (
	// Owner is the owners table.
	Owner = `id, name, address, city, state, postcode, phone, email, created_at, updated_at`
	// Animal is the animals table.
	Animal = `id, owner_id, name, species, breed, colour, sex, altered, birth_date, description, photo, programme, died_on, created_at, updated_at`
	// Chip is the chips table.
	Chip = `id, animal_id, code, kind, manufacturer, implant_date, created_at`
	// Licence is the licences table.
	Licence = `id, animal_id, kind, jurisdiction, year, tag_number, issued_on, expires_on, status, fee_cents, fee_code,
	issued_by, clinic, clinic_pay_cents, replaces, replace_reason, created_at, site`
	// Vaccination is the vaccinations table.
	Vaccination = `id, animal_id, date, type, duration_months, extended_certified, product, manufacturer, lot,
	lot_expires, veterinarian, vet_licence, certificate, rabies_tag, created_at`
	// Bite is the bites table.
	Bite = `id, animal_id, date, victim, skin_broken, provoked, location, notes, created_at`
	// Quarantine is the quarantines table.
	Quarantine = `id, animal_id, bite_id, kind, place, start_on, end_on, released_on, notes, created_at`
	// Designation is the designations table (dangerous and potentially
	// dangerous animals).
	Designation = `id, animal_id, level, jurisdiction, declared_on, decision_on, authority, conditions, registered_on,
	registration_number, sign_on, microchip_on, sterilised_on, photo_on, insured_on, insurance_cents, insurance_expires,
	rescinded_on, created_at, updated_at`
	// Impound is the impoundments table.
	Impound = `id, animal_id, jurisdiction, intake_at, intake_on, site, where_found, notice_on, hold_until, bite_case,
	disposition, disposition_on, disposition_note, fees_cents, created_at, updated_at`
	// Scan is the scans table.
	Scan = `id, at, reader, chip_code, chip_kind, user_name, site, animal_id`
	// Audit is the audit_events table.
	Audit = `id, at, actor, role, action, entity, entity_id, detail, site, token_id`
	// AuditCount is the audit_counts table: the lookups' events a
	// compaction counted. AuditCountKey are the columns it groups by,
	// beside the day.
	AuditCount    = `compaction_id, day, ` + AuditCountKey + `, events, first_at, last_at`
	AuditCountKey = `actor, role, site, token_id, action, entity, entity_id, detail`
	// AuditCompaction is the audit_compactions table.
	AuditCompaction = `id, at, day, before, action_prefix, last_event_id, events, counts`
	// Job is the jobs table.
	Job = `id, kind, licence_id, reason, key, device, state, error, attempts, created_at, updated_at`
	// Token is the tokens table.
	Token = `id, name, role, site, hash, created_at, expires_at, revoked_at, last_used_at`
	// TagBatch is the tag_batches table.
	TagBatch = `id, kind, jurisdiction, year, first, last, species, key, device, state, done, error, attempts,
	created_at, updated_at`
)
