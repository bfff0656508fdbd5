package brotherql

import (
	"errors"
	"fmt"

	"github.com/chipdesk/chipdesk/drivers/printers"
)

// StatusLen is the length of a status reply.
const StatusLen = 32

// Errors of the package.
var (
	ErrStatus  = errors.New("brotherql: bad status reply")
	ErrModel   = errors.New("brotherql: unknown or wrong model")
	ErrMedia   = errors.New("brotherql: unknown, unfit or wrong media")
	ErrImage   = errors.New("brotherql: image does not fit the media")
	ErrJob     = errors.New("brotherql: bad job stream")
	ErrNoReply = errors.New("brotherql: no status reply")
)

// StatusType is byte 18 of the reply.
type StatusType byte

// Status types.
const (
	StatusReply        StatusType = 0x00 // reply to a status request
	StatusPrinted      StatusType = 0x01 // printing completed
	StatusError        StatusType = 0x02 // error occurred
	StatusNotification StatusType = 0x05
	StatusPhaseChange  StatusType = 0x06
)

// Phases (byte 19).
const (
	PhaseWaiting  byte = 0x00 // waiting to receive
	PhasePrinting byte = 0x01
)

// Notifications (byte 22).
const (
	NotifyNone          byte = 0x00
	NotifyCoolingStart  byte = 0x03
	NotifyCoolingFinish byte = 0x04
)

// Status is the 32-byte status reply (Brother raster manuals, "Status
// information"). Every byte is kept, so Encode(ParseStatus(b)) == b.
type Status struct {
	Series       byte    // 3: series code, '0' or '4' seen; not checked
	Model        byte    // 4: model code (Model.Code)
	Country      byte    // 5
	Reserved67   [2]byte // 6, 7
	Err1, Err2   byte    // 8, 9: error information 1 and 2
	MediaWidth   byte    // 10: mm
	MediaType    byte    // 11: MediaNone, MediaContinuous, MediaDieCut
	Reserved1214 [3]byte // 12–14: colours / reserved; not checked
	Mode         byte    // 15: last ESC i M
	Reserved16   byte    // 16
	MediaLength  byte    // 17: mm, 0 when continuous
	Type         StatusType
	Phase        byte    // 19
	PhaseNumber  uint16  // 20–21, big-endian
	Notification byte    // 22
	ExpansionLen byte    // 23
	Tail         [8]byte // 24–31: tape and text colour (QL-800 series), hardware settings, reserved
}

// ParseStatus decodes a status reply. It checks the length and the
// fixed head (0x80, size 0x20, 'B'); short and foreign replies happen on
// real links and are to be re-requested, never guessed.
func ParseStatus(b []byte) (Status, error) {
	var s Status
	if len(b) != StatusLen {
		return s, fmt.Errorf("%w: %d bytes, want %d", ErrStatus, len(b), StatusLen)
	}
	if b[0] != 0x80 || b[1] != 0x20 || b[2] != 'B' {
		return s, fmt.Errorf("%w: head % x", ErrStatus, b[:3])
	}
	s.Series, s.Model, s.Country = b[3], b[4], b[5]
	copy(s.Reserved67[:], b[6:8])
	s.Err1, s.Err2 = b[8], b[9]
	s.MediaWidth, s.MediaType = b[10], b[11]
	copy(s.Reserved1214[:], b[12:15])
	s.Mode, s.Reserved16, s.MediaLength = b[15], b[16], b[17]
	s.Type, s.Phase = StatusType(b[18]), b[19]
	s.PhaseNumber = uint16(b[20])<<8 | uint16(b[21])
	s.Notification, s.ExpansionLen = b[22], b[23]
	copy(s.Tail[:], b[24:32])
	return s, nil
}

// Encode returns the 32 bytes of the reply.
func (s Status) Encode() []byte {
	b := make([]byte, StatusLen)
	b[0], b[1], b[2] = 0x80, 0x20, 'B'
	b[3], b[4], b[5] = s.Series, s.Model, s.Country
	copy(b[6:8], s.Reserved67[:])
	b[8], b[9] = s.Err1, s.Err2
	b[10], b[11] = s.MediaWidth, s.MediaType
	copy(b[12:15], s.Reserved1214[:])
	b[15], b[16], b[17] = s.Mode, s.Reserved16, s.MediaLength
	b[18], b[19] = byte(s.Type), s.Phase
	b[20], b[21] = byte(s.PhaseNumber>>8), byte(s.PhaseNumber)
	b[22], b[23] = s.Notification, s.ExpansionLen
	copy(b[24:], s.Tail[:])
	return b
}

// faultBits maps error information 1 (index 0–7) and 2 (8–15) to faults.
var faultBits = [16]printers.Fault{
	printers.FaultPaperOut,   // 1.0 no media
	printers.FaultPaperOut,   // 1.1 end of media (die-cut)
	printers.FaultCutterJam,  // 1.2 cutter jam
	printers.FaultSystem,     // 1.3 (weak batteries on battery models)
	printers.FaultSystem,     // 1.4 main unit in use
	printers.FaultSystem,     // 1.5 printer turned off
	printers.FaultSystem,     // 1.6 high-voltage adapter
	printers.FaultSystem,     // 1.7 fan failure
	printers.FaultMediaWrong, // 2.0 replace media
	printers.FaultBufferFull, // 2.1 expansion buffer full
	printers.FaultTransmission,
	printers.FaultBufferFull, // 2.3 communication buffer full
	printers.FaultHeadOpen,   // 2.4 cover open
	printers.FaultCancelled,  // 2.5 cancel key
	printers.FaultFeed,       // 2.6 cannot feed / media end
	printers.FaultSystem,     // 2.7 system error
}

var errorNames = [16]string{
	"no media", "end of media", "cutter jam", "weak batteries", "main unit in use",
	"printer turned off", "high-voltage adapter", "fan failure",
	"replace media", "expansion buffer full", "transmission error", "communication buffer full",
	"cover open", "cancel key", "cannot feed", "system error",
}

// Faults returns the error bits as printers faults.
func (s Status) Faults() printers.Fault {
	var f printers.Fault
	bits := uint16(s.Err1) | uint16(s.Err2)<<8
	for i := range 16 {
		if bits&(1<<i) != 0 {
			f |= faultBits[i]
		}
	}
	if s.Type == StatusError && f == 0 {
		f = printers.FaultSystem // an error report with no bit set
	}
	return f
}

// Errors names the error bits that are set, in the manual's words.
func (s Status) Errors() []string {
	var out []string
	bits := uint16(s.Err1) | uint16(s.Err2)<<8
	for i := range 16 {
		if bits&(1<<i) != 0 {
			out = append(out, errorNames[i])
		}
	}
	return out
}

// Media returns the loaded media from the table, if it is known.
func (s Status) Media() (Media, bool) {
	for _, m := range Medias {
		if int(s.MediaWidth) == m.WidthMM && s.MediaType == m.Type &&
			(m.Type == MediaContinuous || int(s.MediaLength) == m.LengthMM) {
			return m, true
		}
	}
	return Media{}, false
}

// Shared returns the status in the form shared by all printers.
func (s Status) Shared() printers.Status {
	st := printers.Status{Faults: s.Faults(), Busy: s.Phase == PhasePrinting}
	if m, ok := s.Media(); ok {
		st.Media = m.String()
	} else if s.MediaType != MediaNone {
		st.Media = fmt.Sprintf("%d mm type %#02x length %d mm", s.MediaWidth, s.MediaType, s.MediaLength)
	}
	return st
}
