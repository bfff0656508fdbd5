// Package lookup answers the question asked at every scan: whose animal
// is this, and is it dangerous?
//
// It is the one place where a stored record (service.Record, from the
// store) meets the jurisdiction rules (package service/rules) to become
// the lookup answer: the animal, its owner, the licence and its status,
// the rabies status, at the top the dangerous-animal restrictions and any
// active quarantine, the impoundments of the last twelve months with what
// redemption would cost today, the hold-until date and the open
// deadlines. A chip is identified from any text only through
// reader/chipid; a chip nobody registered answers with its manufacturer
// and what to do next, not with a bare "not found".
//
// The lookup only answers: selling licences, impounding and recording
// incidents are service/licensing, service/custody and
// service/incidents. Query.AsOf computes the answer for another day
// ("what would redemption cost on Friday"), and the dangerous object
// lists the designation's requirements with their status.
//
// The answer is a JSON document whose field names are part of the HTTP
// API (service/httpapi serves it at /api/v1/lookup and inside every scan
// event).
//
// # References
//
//   - Minn. Stat. 347.51–347.52 (dangerous dog registration and
//     restrictions), 346.47 (impound hold and records).
//   - Minneapolis Code of Ordinances Title 4; Chanhassen City Code ch. 5.
//   - AAHA Universal Pet Microchip Lookup (the next step for a chip not
//     registered here).
package lookup
