// Package incidents records bites, quarantines and dangerous-animal
// designations, and decides what follows from them by the rules of the
// jurisdiction (service/rules):
//
//   - a bite of a person starts the bite quarantine: ten days, at home
//     when the animal's rabies vaccination is current, else at the
//     shelter or a veterinarian (Minneapolis 66.40, Chanhassen 5-39(a));
//     in Chanhassen it also proposes a "dangerous animal" designation
//     for an officer's review (5-76(2));
//   - a bite quarantine shorter than ten days is refused (66.40 "not less
//     than ten (10) days", 5-39(a) "a period of ten days");
//   - an exposure to a rabid animal follows 66.50(a)/(b) and 5-40: the
//     officer chooses one of the options the text gives (destroy; strict
//     isolation for at least six months, vaccinated a month before
//     release; revaccination and forty days' confinement when
//     vaccinated; boosters on proof of immunization), each with its end
//     date and section;
//   - a designation names a known jurisdiction and one of the two levels
//     of Minn. Stat. 347.50 ("dangerous", subd. 2; "potentially
//     dangerous", subd. 3), whose requirements and their status come
//     from the rules (Requirements).
//
// Events that have happened (a bite, a declaration, a vaccination) are
// refused when dated in the future.
//
// # References
//
//   - Minneapolis Code of Ordinances 64.110, 66.40, 66.50.
//   - Chanhassen City Code 5-39, 5-40, 5-76 to 5-78.
//   - Minn. Stat. 347.50-347.56.
package incidents
