package datamars

import (
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// ErrFraming is a line that is neither a live read nor a record.
var ErrFraming = errors.New("datamars: not a tag line")

// Frame is one line: a live read, or a stored record when Record is
// set.
type Frame struct {
	Tag    string // the tag as printed, "A 00000 0 982 000017383201"
	Record bool
	Index  string    // record number
	At     time.Time // date and time of a record, in UTC as printed
}

var (
	tagRe    = `A(?: \d{5} [01] \d{3,4} \d{12}|\d{22})`
	liveRe   = regexp.MustCompile(tagRe + `$`)
	recordRe = regexp.MustCompile(`(\d{4,6}),(\d{4}-\d{2}-\d{2}),(\d{2}:\d{2}:\d{2}),(` + tagRe + `)$`)
)

const stampLayout = "2006-01-02 15:04:05"

// Decode parses one line, with or without its line end.
func Decode(line []byte) (Frame, error) {
	s := readers.TrimEOL(line)
	if m := recordRe.FindSubmatch(s); m != nil && len(m[0]) == len(s) {
		at, err := time.Parse(stampLayout, string(m[2])+" "+string(m[3]))
		if err != nil {
			return Frame{}, fmt.Errorf("%w: %q: %w", ErrFraming, s, err)
		}
		return Frame{Tag: string(m[4]), Record: true, Index: string(m[1]), At: at}, nil
	}
	if loc := liveRe.FindIndex(s); loc != nil && loc[0] == 0 {
		return Frame{Tag: string(s)}, nil
	}
	return Frame{}, fmt.Errorf("%w: %q", ErrFraming, s)
}

// Encode returns the line for f, with CR LF.
func Encode(f Frame) ([]byte, error) {
	if !liveRe.MatchString(f.Tag) || liveRe.FindStringIndex(f.Tag)[0] != 0 {
		return nil, fmt.Errorf("%w: tag %q", ErrFraming, f.Tag)
	}
	if !f.Record {
		return []byte(f.Tag + "\r\n"), nil
	}
	if len(f.Index) < 4 || len(f.Index) > 6 || !readers.Digits(f.Index) {
		return nil, fmt.Errorf("%w: record number %q", ErrFraming, f.Index)
	}
	return []byte(f.Index + "," + f.At.UTC().Format("2006-01-02,15:04:05") + "," + f.Tag + "\r\n"), nil
}

// match finds a line's frame: a record, or else a live tag at its end.
// A record that fails Decode (a bad date) is a bad frame.
func match(line []byte) (int, error) {
	loc := recordRe.FindIndex(line)
	if loc == nil {
		loc = liveRe.FindIndex(line)
	}
	if loc == nil {
		return -1, nil
	}
	if _, err := Decode(line[loc[0]:]); err != nil {
		return loc[0], err
	}
	return loc[0], nil
}

// Split cuts lines out of a byte stream (a readers.SplitFunc).
func Split(buf []byte) (int, error) { return readers.SplitLine(buf, 80, match) }

// ToRead turns a frame into a read; records give ok false unless
// records is set.
func ToRead(f Frame, records bool) (reader.Read, bool, error) {
	if f.Record && !records {
		return reader.Read{}, false, nil
	}
	id, err := readers.ChipText(f.Tag, chipid.FormDecimal)
	if err != nil {
		return reader.Read{}, false, fmt.Errorf("datamars: %w", err)
	}
	return reader.Read{ID: id, Protocol: reader.AirISO}, true, nil
}

// FromID returns the live line content for an ISO chip.
func FromID(id chipid.ID) (Frame, error) {
	if id.Kind != chipid.KindISO {
		return Frame{}, fmt.Errorf("datamars: %s chip %s is not ISO 11784", id.Kind, id.Code)
	}
	db := "0"
	if id.ISO.DataBlock() {
		db = "1"
	}
	return Frame{Tag: "A 00000 " + db + " " + id.ISO.Display()}, nil
}

// Opts configures the protocol value.
type Opts struct {
	// Records makes memory records give reads.
	Records bool
}

// Protocol returns the GES3S protocol; a nil o gives live reads only.
func Protocol(o *Opts) readers.Protocol {
	records := o != nil && o.Records
	return readers.Protocol{
		Name:    "datamars",
		Summary: "Datamars GES3S / Digi-Star: A 00000 0 ccc nnnnnnnnnnnn lines and memory records, 9600 8N1",
		Mode:    port.Mode{Baud: 9600, DataBits: 8, Parity: port.ParityNone, StopBits: 1},
		Split:   Split, Max: 256,
		Decode: func(b []byte) (reader.Read, bool, error) {
			f, err := Decode(b)
			if err != nil {
				return reader.Read{}, false, err
			}
			return ToRead(f, records)
		},
		Encode: func(id chipid.ID) ([]byte, error) {
			f, err := FromID(id)
			if err != nil {
				return nil, err
			}
			return Encode(f)
		},
	}
}
