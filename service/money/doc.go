// Package money turns the fees the rules compute into charges on the
// person who owes them, takes payments against them (cash, card,
// cheque, or waived by a named supervisor), refunds and voids, and
// answers the money questions: is a licence or a redemption paid, what
// did a till take today, what does the city owe each clinic, which
// sterilisation deposits fall due. It renders the reports' charts as
// SVG on the server. Money is integer cents throughout.
//
// The doors (httpapi, web, the reminders command) call this package;
// the fees themselves come from service/rules and nowhere else.
//
// # References
//
//   - Minneapolis Code of Ordinances 62.40(a) (impound fees, the penalty
//     for a licence bought at release), 62.40(b) (board per day),
//     62.40(c) (the sterilisation deposit: refundable on proof of
//     sterilisation or a veterinarian's certificate within forty-five
//     days of the redemption date, forfeited after), 64.30 (licence
//     fees; contracted clinics paid per licence; service dogs and
//     foster animals exempt from the fee, the programme approved by the
//     director), 64.40 (duplicate tags).
//   - Chanhassen City Code 5-74 (redemption fees, set by resolution).
package money
