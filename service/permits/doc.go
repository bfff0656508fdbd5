// Package permits issues, tracks and enforces the licences and permits
// the ordinances define beside an animal's licence, the shelter's
// sterilisation agreements and the bite and rabies-suspect reports:
//
//   - Chanhassen kennel licences, private and commercial (5-18, 5-18.1,
//     5-18.2): the application's contents, the agricultural-cats
//     exception, the refusals, the inspection before grant, the expiry on
//     the December 31 after issue and the renewal due by December 1,
//     revocation, suspension and non-renewal on the grounds of 5-18(e)
//     and the appeal window of 5-18(f);
//   - one kennel licence per place of business (5-18(c));
//   - Chanhassen stable permits (5-101 to 5-106): application,
//     inspection, the conditions of issue, annual registration by June 1
//     and revocation after a hearing noticed ten days ahead; a horse's
//     escape recorded with the city's recovery charge, at least $25.00
//     (5-87(a)), one recovered by the city suspending the permit until
//     the stable inspector reinspects and the inspection is paid for
//     (5-87(b)); the exemption of stables kept since 1975 (5-88);
//   - Minneapolis off-leash permits (64.55), refused for a dog designated
//     dangerous under 64.110 or dangerous or potentially dangerous under
//     Minn. Stat. 347.50;
//   - Minneapolis permits for more than three dogs or cats (64.100);
//   - Minneapolis pet shop, kennel and other animal-business licences
//     (68.10);
//   - Minneapolis shelter adoptions' sterilisation agreements and
//     deposits (64.140);
//   - bite reports (66.60) and rabies-suspect reports (66.70).
//
// Every number comes from the jurisdiction's profile (package rules,
// key "permits", with the offLeash and dwelling keys for the 64.55 and
// 64.100 fees and terms), each with its section. A fee the text leaves
// to a resolution is recorded on the permit as not set (fee_cents
// null) with its section, never invented.
//
// # Readings taken
//
//   - "The December 31 following the issuance" (5-18(c)) is the first
//     December 31 strictly after the issue date.
//   - A kennel renewal is due on the December 1 before the expiry.
//   - 5-18(f) states the ten days for a revocation, suspension or
//     non-renewal; a denial's appeal is counted the same way from the
//     denial.
//   - A stable's annual registration (5-105(a)) is due on the first June
//     1 after the issue or the last registration; a permit not
//     registered by then is cancelled (5-105(b)).
//   - One horse needs the one-acre minimum lot of 5-104(a)(2); two or
//     more the areas of 5-104(a)(1).
//   - 64.140(a)(1) speaks of animals "less than" and "more than" six
//     months old; one exactly six months old is treated as older.
//   - The place of business of 5-18(c) is the property of 5-18(b)(1),
//     compared without regard to case and spacing; a licensee's second
//     licence for that place over the same term is refused, a renewal
//     (the next term) is not.
//   - 5-87(a) sets only the least the city charges to recover a horse;
//     the permit records the amount, and the money side raises charges.
//     5-87(b) names no form for the reinspection; its payment is the
//     clerk's record that the inspection fee (set by resolution,
//     5-105(a)) was paid.
//   - 5-88(a) dates the exemption April 24, 1975 and counts the horses
//     as of April 25, 1975, as the text does; a break "for a continuous
//     period of more than one year" (5-88(b)(2)) is one ending later
//     than twelve months after it began.
//
// # References
//
//   - Chanhassen City Code 5-18, 5-18.1, 5-18.2, 5-87, 5-88, 5-89, 5-101
//     to 5-106.
//   - Minneapolis Code of Ordinances 64.55, 64.100, 64.110, 64.140,
//     66.60, 66.70, 68.10.
//   - Minn. Stat. 347.50 subd. 2 and 3 (dangerous and potentially
//     dangerous dogs).
package permits
