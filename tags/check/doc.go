// Package check makes and verifies the keyed check code carried by a
// licence tag's machine-readable symbol, so that a counter clerk or an
// officer can tell an issued tag from a fabricated one without a
// network.
//
// # Payload
//
// The text a tag's DataMatrix (or QR) carries is
//
//	<J><YY>-<NUMBER>-<CHECK>        e.g. MPLS26-001234-91BP3
//
// where J is the jurisdiction code (2 to 6 letters A-Z), YY the licence
// year 2000-2099 in two digits, NUMBER the register number (1 to
// 999999999) in decimal padded with zeros to at least six digits, and
// CHECK five characters of Crockford's base 32 alphabet
// (0-9 A-Z without I, L, O, U). A QR may carry the same payload as the
// last path segment of an upper-case URL ("HTTPS://EX.ORG/T/MPLS26-001234-7KQ2M"),
// which stays in QR alphanumeric mode; [Parse] accepts both forms.
//
// # Check code
//
// CHECK is the first 25 bits of HMAC-SHA256 keyed with the secret of
// that jurisdiction and year, over the message
// "chipdesk-tag-v1" 0x00 J 0x00 year 0x00 number (decimal, no padding).
// A fabricated number therefore passes with probability 2^-25, and a
// code copied from another year or city fails because the key and the
// message differ. Keys are per jurisdiction and rotated per year; they
// live in key files outside the database (see [LoadKeys]), never in a
// dump of it.
//
// [DevelopmentKeys] derives a key for any jurisdiction and year from a
// fixed, public string: it exists for demos and tests only, and a
// [Keyring] made from it says so ([Keyring.Development]).
//
// # References
//
//   - Minneapolis Code of Ordinances 64.30 (register number and year on a
//     metallic tag whose design changes each year) and 64.20 (no tag of
//     the same form as the official tag); Chanhassen City Code 5-55
//     (receipts and tags; counterfeit tags unlawful).
//   - RFC 2104, HMAC: Keyed-Hashing for Message Authentication; FIPS
//     180-4 (SHA-256).
//   - D. Crockford, "Base32" (https://www.crockford.com/base32.html).
package check
