package avid

import (
	"bytes"
	"fmt"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// Lines the reader sends besides a number.
const (
	Looking = "Looking"
	NoID    = "No ID Found"
)

// Trigger is the byte that starts a read.
const Trigger = ' '

// TriggerEvery is how long the driver waits for an answer before it
// asks again.
const TriggerEvery = 3 * time.Second

// Protocol is the AVID RS-232 protocol.
var Protocol = readers.Protocol{
	Name:    "avid",
	Summary: "AVID Power Tracker RS-232: a space triggers a read; Looking / No ID Found / the number, 9600 8N1",
	Mode:    port.Mode{Baud: 9600, DataBits: 8, Parity: port.ParityNone, StopBits: 1},
	Split:   Split,
	Max:     256,
	Decode:  ReadFrame,
	Encode:  Encode,
	// The trigger is also the harmless query: any AVID reader answers
	// it, with or without a chip.
	Query:        []byte{Trigger},
	Answers:      func(b []byte) bool { return bytes.Contains(b, []byte(Looking)) || bytes.Contains(b, []byte(NoID)) },
	Trigger:      []byte{Trigger},
	TriggerEvery: TriggerEvery,
	Idle:         func(f []byte) bool { return string(readers.TrimEOL(f)) == NoID },
}

// match finds an answer at the end of a line: a status word or a number
// in one of the reader's forms. Anything before it is noise; a number
// chipid refuses makes the line a bad frame.
func match(line []byte) (int, error) {
	i := shape(line)
	if i < 0 {
		return -1, nil
	}
	if _, _, err := ReadFrame(line[i:]); err != nil {
		return i, err
	}
	return i, nil
}

// shape finds where an answer starts at the end of line, by its shape.
func shape(line []byte) int {
	for _, w := range []string{NoID, Looking} {
		if bytes.HasSuffix(line, []byte(w)) {
			return len(line) - len(w)
		}
	}
	n := len(line)
	switch {
	case n >= 16 && bytes.EqualFold(line[n-16:n-12], []byte("AVID")) && line[n-12] == '*' && line[n-8] == '*' && line[n-4] == '*' &&
		readers.Digits(line[n-11:n-8]) && readers.Digits(line[n-7:n-4]) && readers.Digits(line[n-3:]):
		return n - 16
	case n >= 15 && readers.Digits(line[n-15:]):
		return n - 15
	case n >= 10 && readers.HexDigits(line[n-10:]):
		return n - 10
	}
	return -1
}

// Split cuts answer lines out of a byte stream (a readers.SplitFunc).
func Split(buf []byte) (int, error) { return readers.SplitLine(buf, 64, match) }

// ReadFrame turns an answer line into a read (a readers.DecodeFunc):
// "Looking" and "No ID Found" give no read.
func ReadFrame(b []byte) (reader.Read, bool, error) {
	s := string(readers.TrimEOL(b))
	switch s {
	case Looking, NoID:
		return reader.Read{}, false, nil
	}
	form := chipid.FormDecimal
	if len(s) == 10 {
		form = chipid.FormFDXA
	}
	id, err := readers.ChipText(s, form)
	if err != nil {
		return reader.Read{}, false, fmt.Errorf("avid: %w", err)
	}
	p := reader.AirISO
	switch id.Kind {
	case chipid.KindAVID:
		p = reader.AirAVID
	case chipid.KindFECAVA:
		p = reader.AirFDXA
	}
	return reader.Read{ID: id, Protocol: p}, true, nil
}

// Encode returns the line the reader sends with the number of id (after
// a Looking line, which is no frame of a chip).
func Encode(id chipid.ID) ([]byte, error) {
	var num string
	switch id.Kind {
	case chipid.KindISO:
		num = id.Code
	case chipid.KindAVID, chipid.KindFECAVA:
		num = id.String()
	default:
		return nil, fmt.Errorf("avid: a %s chip is not read by AVID readers", id.Kind)
	}
	return []byte(num + "\r\n"), nil
}

// New reads an AVID reader on p; nil o means Protocol.Mode.
func New(p port.Port, o *readers.Opts) (*readers.Dev, error) { return readers.Open(p, Protocol, o) }
