// Package rules holds what the ordinances say, as data, and the engine
// that applies it: for a record and a date it computes the licence and
// rabies status, alerts, open deadlines, the impound hold and the
// redemption fees. Fees, expiry dates, hold periods and quarantine
// periods are computed here and nowhere else.
//
// Each jurisdiction is a JSON profile (profiles/*.json, embedded). Every
// value in a profile carries the ordinance section it comes from, and the
// engine passes that section on with every fee line, status, alert and
// deadline, so a clerk can answer "why". A third city is a new file;
// a site can replace an embedded profile with its own (ParseProfile,
// Set.Add), for example to fill in fees set by resolution.
//
// Values the law leaves to someone else (Chanhassen's fees, set in its
// chapter 4; the killed-vaccine period missing from 5-37(a)) are "not
// set" in the profile, and the engine reports them as such instead of
// inventing a number. Where the text contradicts itself (Minneapolis
// 65.30(b) reads "twenty dollars ($25.00)") the profile keeps both
// readings and the engine reports a conflict.
//
// Dates are service.Date civil dates in the jurisdiction's zone
// (Profile.Today). The zone is loaded by name; a binary that must run
// without a system zoneinfo imports time/tzdata.
//
// # Readings taken
//
//   - "January thirty-first next after the issuance" (64.30, 65.30(a),
//     64.55(b)) is the first January 31 strictly after the issue date.
//   - Chanhassen 5-54 "on the anniversary date the rabies vaccination was
//     given": the first anniversary of the latest vaccination strictly
//     after the issue date.
//   - A rabies vaccination is valid through the day its period ends.
//   - Minneapolis 62.40(b) board is counted per calendar day held, the
//     intake and release days included.
//   - The Minnesota hold (346.47 subd. 2) is counted in regular business
//     days after the intake day, on the profile's opening calendar; the
//     hold ends on the later of the city's and the state's date.
//
// # References
//
//   - Minneapolis Code of Ordinances, Title 4: 62.40, 62.50, 64.10, 64.30,
//     64.40, 64.55, 64.100, 64.110, 65.10–65.30, 66.10–66.50.
//   - Chanhassen City Code, chapter 5: 5-37, 5-39, 5-40, 5-51–5-55,
//     5-73–5-75, 5-77, 5-78.
//   - Minn. Stat. 346.47 subd. 2 (regular business days), 347.51,
//     347.515 (dangerous dogs).
package rules
