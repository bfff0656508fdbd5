// Package service holds chipdesk's application domain: the records an
// animal-control office keeps (owners, animals, chips, licences, rabies
// vaccinations, dangerous-animal designations, bites and quarantines,
// impoundments), the events it logs (scans, audit events, print and
// engrave jobs), access tokens, and the service interfaces that stores
// implement.
//
// The package follows the "standard package layout": domain types and
// interfaces here, one subpackage per technology (store/sqlite,
// store/postgres, httpapi, ...), wired together only in cmd/chipdesk.
// Subpackages report application errors as *Error with one of the codes
// EINVALID, ENOTFOUND, ECONFLICT, EUNAUTHORIZED, EFORBIDDEN or EINTERNAL;
// ErrorCode and ErrorMessage read them back.
//
// # Dates and money
//
// Calendar facts (issue date, expiry, vaccination date, hold-until) are
// civil dates: type Date, a day with no time and no zone. A Date is the
// day as seen in the jurisdiction's own zone (America/Chicago for both
// profiles shipped); the conversion from an instant happens once, with
// DateIn, where the current time enters (rules.Profile.Today). Instants
// (scan times, audit times, job updates) stay time.Time in UTC.
// Money is always an int64 number of cents.
//
// # References
//
//   - Minneapolis Code of Ordinances, Title 4 (chapters 62, 64, 65, 66).
//   - Chanhassen City Code, chapter 5, articles I–IV.
//   - NASPHV Form 51, Rabies Vaccination Certificate (fields of
//     RabiesVaccination).
//   - Minn. Stat. 346.47 (impound records), 347.50–347.565 (dangerous dogs).
package service
