// Package linefmt reads any reader that prints one chip per line, from a
// description instead of code: a regular expression, a map from the
// fields the package needs to the expression's named groups, and the
// line's baud rate and framing. A site adds an unlisted reader (a
// Gallagher, a Datamars, a new Allflex model) by writing a Spec in its
// configuration file.
//
// The fields are:
//
//   - code: the chip number as the reader prints it, read by package
//     chipid (15 digits with or without separators, AVID, FECAVA,
//     Trovan forms), in the form Spec.Form declares so that a read is
//     never ambiguous;
//   - country and national: the ISO 11784 parts as decimal numbers,
//     used when there is no code field;
//   - rev: the 64-bit code as 16 hex digits in air order (bit-reversed),
//     used when there is neither;
//   - protocol: optional text mapped to an air protocol through
//     Spec.Protocols.
//
// The expression is searched for in each line; text before the match is
// counted as garbage, lines without a match are skipped.
//
// # References
//
//   - Go regexp syntax (RE2), package regexp.
//   - ISO 11784:1996 §5 code structure.
package linefmt
