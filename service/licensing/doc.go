// Package licensing sells, renews and replaces animal licences: every
// decision a clerk's or a clinic's licence sale depends on is made here,
// on the store and the jurisdiction rules (service/rules); the doors
// (service/httpapi, service/web, cmd/chipdesk, the sync of a handheld)
// only parse, call and render.
//
// What it refuses, as typed errors (service.Error):
//
//   - a second active licence for the term one already covers (ECONFLICT,
//     naming the licence in force); the store enforces the same with a
//     unique index, so parallel sales give one licence;
//   - renewing a replaced or revoked licence (ECONFLICT); a renewal gives
//     the next term: before the current one ends it starts where that
//     one ends, and the fee is the next term's;
//   - a duplicate tag except for a lost or stolen one (Minneapolis 64.40),
//     or for a licence not active or expired;
//   - a sale the rules refuse: a species the city does not license, an
//     expiry that cannot be computed, no current rabies vaccination
//     (64.30, 5-51), a fee the clerk types where the ordinance sets one.
//
// A clinic sells in its own name (Minneapolis 64.30: the city pays the
// clinic per licence processed): a clinic caller's sale is always issued
// by the clinic, whatever the request says.
//
// A tag is printed or engraved only from an approved design
// (DesignApproved), whichever door asks: service/jobs calls it before
// queueing any tag.
//
// # References
//
//   - Minneapolis Code of Ordinances 64.10, 64.30, 64.40, 65.30.
//   - Chanhassen City Code 5-51, 5-54.
package licensing
