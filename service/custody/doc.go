// Package custody keeps the pound's custody of an animal: impound,
// notice of impounding, then either redeemed by the owner (fee lines
// computed from the impound's own history and frozen at release) or,
// once the hold is over, adopted, sold, transferred or destroyed.
//
// What it refuses, as typed errors (service.Error):
//
//   - impounding an animal already in custody (ECONFLICT): a page reload
//     or a second officer does not start a second stay, nor charge it as
//     the "2nd in 12 months" (62.40(a));
//   - an intake, notice or release dated in the future, or before the
//     intake (EINVALID, naming the field);
//   - a disposition other than redemption before the hold ends
//     (ECONFLICT; Minneapolis 62.40(a), 62.50: five days; Chanhassen
//     5-73(a), 5-75: five days after notice; Minn. Stat. 346.47 subd. 2:
//     five regular business days), and a second end to a stay that has
//     ended.
//
// # References
//
//   - Minneapolis Code of Ordinances 62.40, 62.50; Chanhassen City Code
//     5-73, 5-74, 5-75; Minn. Stat. 346.47.
package custody
