// Package tags makes the yearly licence tags: a Design per jurisdiction
// and licence year (shape, size, ring hole, metal colour, text lines and
// a machine-readable code), the rule that a year's design differs
// visibly from the year before, and rendering of an issued Tag as a
// colour preview (image.Image at any dpi), SVG, a ZPL label, and
// engraving paths in millimetres, one tag or a whole plate at a time.
//
// Designs are data: one JSON file per jurisdiction and year under
// designs/ (built in) or in a local directory (LoadDesigns); a new year
// is a new file. Text lines are templates with {CITY}, {SPECIES},
// {YEAR} and {NUMBER}. The Minnesota dangerous-dog tag is a uniform
// design of its own (year 0, jurisdiction MNDD) used every year.
//
// The code on a tag is a DataMatrix ECC 200 (or a QR, by design) of the
// payload made by package check: jurisdiction, year, register number
// and a keyed check code, so that a fabricated number is told from an
// issued one without a network.
//
// A Renderer sets text from an outline font through
// golang.org/x/image/font/sfnt (Go Bold by default, any TrueType or
// OpenType font by Opts.Font). Paths returns a toolpath.Job: glyph
// contours and code modules (in horizontal runs) as closed outlines,
// their fill as hatch strokes, and the blank's outline and hole as cut
// lines, each ordered to keep the laser's travel short. Layout places
// many tags on plates or label sheets in serpentine order.
//
// # References
//
//   - Minneapolis Code of Ordinances 64.30: each licensed dog and cat
//     gets a metallic tag stamped or engraved with its register number
//     and the year; the design changes each year. 64.20: no one may make
//     or use a tag of the same form, shape or appearance as the official
//     tag.
//   - Chanhassen City Code 5-55: a suitable tag on payment of the fee;
//     (c) duplicates; (d) counterfeiting a tag is unlawful.
//   - Minn. Stat. 347.51 subd. 7 and Minn. R. 7417.0200: the uniform
//     dangerous-dog tag (1 1/2 in. aluminium circle, ring at top centre,
//     registration number and statutory citation on the back).
//   - ISO/IEC 16022 (DataMatrix ECC 200, quiet zone §7.1), ISO/IEC 18004
//     (QR, quiet zone), ISO/IEC 15417 (Code 128).
//   - Zebra ZPL II Programming Guide (45541L-002): ^BX quality 200, ^BC
//     with the ">;" code set C start, ^GF, ^FB, ^FH, ^CI28.
//   - NASPHV rabies tag colour/shape cycle (a licence design should not
//     look like the same year's rabies tag).
package tags
