// Package jsonscan reads JSON text (RFC 8259) one token at a time, for
// the few decoders that know the shape of what they read and would pay
// for encoding/json's reflection and its decoding of what they skip.
//
// A Scanner holds the text, a string or a []byte, and a position in it.
// Its methods each read one piece at the position, after white space
// (section 2: space, tab, line feed, carriage return):
//
//   - String, a string (section 7): a slice of the text when it has no
//     escape (and is valid UTF-8), else decoded as encoding/json decodes
//     it: escapes, surrogate pairs (section 8.2), a lone surrogate or a
//     byte that is not UTF-8 as U+FFFD;
//   - Number, a number's literal (section 6), and Int64, one that is an
//     integer and fits an int64;
//   - Null and Bool, the literal names (section 3);
//   - Object and Array, the members of an object (section 4) and the
//     elements of an array (section 5), given to a callback that reads
//     each value;
//   - Skip, one whole value of any kind, checked but not decoded.
//
// Every piece is checked as it is read, so that text a Scanner reads to
// its End is text json.Valid accepts, nested at most MaxDepth deep as
// encoding/json allows. A method that meets a malformed piece, or a
// value of another kind than it reads, returns an *Error and leaves the
// position where it stopped.
package jsonscan
