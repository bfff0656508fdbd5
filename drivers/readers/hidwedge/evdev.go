package hidwedge

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers"
)

// EvdevFormat is reader.Read.Format for reads from a wedge scanner
// through the Linux input subsystem.
const EvdevFormat = "evdev"

// EventSize is the size of a Linux struct input_event on this machine:
// a struct timeval (two C longs) then __u16 type, __u16 code and __s32
// value (linux/input.h). A C long is a Go int on every Linux target.
const EventSize = 2*strconv.IntSize/8 + 8

// Event types and values of linux/input-event-codes.h used here.
const (
	EvSyn = 0x00
	EvKey = 0x01
	EvMsc = 0x04

	KeyUp     = 0
	KeyDown   = 1
	KeyRepeat = 2
)

// ErrEvent reports an input event that is not EventSize bytes.
var ErrEvent = errors.New("hidwedge: input event is not " + strconv.Itoa(EventSize) + " bytes")

// Event is one struct input_event.
type Event struct {
	Time  time.Time // the kernel's stamp, microseconds
	Type  uint16
	Code  uint16
	Value int32
}

// ParseEvent reads one input_event in the machine's byte order.
func ParseEvent(b []byte) (Event, error) {
	if len(b) != EventSize {
		return Event{}, fmt.Errorf("%w: %d bytes", ErrEvent, len(b))
	}
	o := binary.NativeEndian
	var sec, usec int64
	if strconv.IntSize == 64 {
		sec, usec = int64(o.Uint64(b[0:])), int64(o.Uint64(b[8:]))
	} else {
		sec, usec = int64(int32(o.Uint32(b[0:]))), int64(int32(o.Uint32(b[4:])))
	}
	t := b[EventSize-8:]
	return Event{
		Time: time.Unix(sec, usec*1000).UTC(),
		Type: o.Uint16(t[0:]), Code: o.Uint16(t[2:]), Value: int32(o.Uint32(t[4:])),
	}, nil
}

// AppendEvent appends e as an input_event in the machine's byte order.
func AppendEvent(b []byte, e Event) []byte {
	o := binary.NativeEndian
	var sec, usec int64
	if !e.Time.IsZero() {
		sec, usec = e.Time.Unix(), int64(e.Time.Nanosecond()/1000)
	}
	if strconv.IntSize == 64 {
		b = o.AppendUint64(b, uint64(sec))
		b = o.AppendUint64(b, uint64(usec))
	} else {
		b = o.AppendUint32(b, uint32(sec))
		b = o.AppendUint32(b, uint32(usec))
	}
	b = o.AppendUint16(b, e.Type)
	b = o.AppendUint16(b, e.Code)
	return o.AppendUint32(b, uint32(e.Value))
}

// Linux key codes (linux/input-event-codes.h) of the keys a layout
// types, as the HID usages the kernel's hid-input maps to them
// (drivers/hid/hid-input.c, hid_keyboard[]). KEY_BACKSLASH is both the
// US backslash (0x31) and the ISO key beside Enter (0x32).
var keyUsage = map[uint16]byte{
	1: 0x29,                                                                                    // KEY_ESC
	2: 0x1e, 3: 0x1f, 4: 0x20, 5: 0x21, 6: 0x22, 7: 0x23, 8: 0x24, 9: 0x25, 10: 0x26, 11: 0x27, // KEY_1..KEY_0
	12: 0x2d, 13: 0x2e, 14: 0x2a, 15: 0x2b, // MINUS EQUAL BACKSPACE TAB
	16: 0x14, 17: 0x1a, 18: 0x08, 19: 0x15, 20: 0x17, 21: 0x1c, 22: 0x18, 23: 0x0c, 24: 0x12, 25: 0x13, // Q..P
	26: 0x2f, 27: 0x30, 28: 0x28, // LEFTBRACE RIGHTBRACE ENTER
	30: 0x04, 31: 0x16, 32: 0x07, 33: 0x09, 34: 0x0a, 35: 0x0b, 36: 0x0d, 37: 0x0e, 38: 0x0f, // A..L
	39: 0x33, 40: 0x34, 41: 0x35, 43: 0x31, // SEMICOLON APOSTROPHE GRAVE BACKSLASH
	44: 0x1d, 45: 0x1b, 46: 0x06, 47: 0x19, 48: 0x05, 49: 0x11, 50: 0x10, // Z..M
	51: 0x36, 52: 0x37, 53: 0x38, 55: 0x55, 57: 0x2c, 58: 0x39, // COMMA DOT SLASH KPASTERISK SPACE CAPSLOCK
	71: 0x5f, 72: 0x60, 73: 0x61, 74: 0x56, 75: 0x5c, 76: 0x5d, 77: 0x5e, 78: 0x57, // KP7 KP8 KP9 KPMINUS KP4 KP5 KP6 KPPLUS
	79: 0x59, 80: 0x5a, 81: 0x5b, 82: 0x62, 83: 0x63, // KP1 KP2 KP3 KP0 KPDOT
	86: 0x64, 96: 0x58, 98: 0x54, // KEY_102ND KPENTER KPSLASH
}

// keyMod maps the modifier keys to their bits of a boot report's byte 0.
var keyMod = map[uint16]byte{
	29: modLCtrl, 42: modLShift, 56: modLAlt, 125: modLGUI,
	97: modRCtrl, 54: modRShift, 100: modRAlt, 126: modRGUI,
}

const keyBackslash = 43

// usageKey is keyUsage the other way, for EncodeEvents.
func usageKey(u byte) (uint16, bool) {
	if u == 0x32 {
		return keyBackslash, true
	}
	for k, v := range keyUsage {
		if v == u {
			return k, true
		}
	}
	return 0, false
}

// EventDecoder turns key events into characters. It keeps the keys
// held as a boot keyboard report and hands each change to a Decoder,
// so both ways in (USB reports and input events) type alike: Shift,
// AltGr and Caps Lock as the layout says, a held or repeated key once.
type EventDecoder struct {
	dec    *Decoder
	iso    bool // KEY_BACKSLASH is the ISO key 0x32: the layout has no 0x31
	mods   byte
	held   []byte
	report [ReportLen]byte
}

// NewEventDecoder returns a decoder for l; nil means US.
func NewEventDecoder(l *Layout) *EventDecoder {
	if l == nil {
		l = US()
	}
	_, has31 := l.keys[0x31]
	return &EventDecoder{dec: NewDecoder(l), iso: !has31}
}

// Decode returns the characters one input event types: text, and
// Enter, Tab and Backspace as '\n', '\t' and '\b'. Events other than
// key presses and releases (sync, scan codes, repeats) type nothing.
func (d *EventDecoder) Decode(b []byte) ([]rune, error) {
	e, err := ParseEvent(b)
	if err != nil {
		return nil, err
	}
	if e.Type != EvKey || (e.Value != KeyDown && e.Value != KeyUp) {
		return nil, nil
	}
	down := e.Value == KeyDown
	if m, ok := keyMod[e.Code]; ok {
		if down {
			d.mods |= m
		} else {
			d.mods &^= m
		}
	} else {
		u, ok := keyUsage[e.Code]
		if !ok {
			return nil, nil // a key no layout types
		}
		if u == 0x31 && d.iso {
			u = 0x32
		}
		i := slices.Index(d.held, u)
		switch {
		case down && i < 0 && len(d.held) < 6:
			d.held = append(d.held, u)
		case !down && i >= 0:
			d.held = slices.Delete(d.held, i, i+1)
		default:
			return nil, nil
		}
	}
	d.report = [ReportLen]byte{0: d.mods}
	copy(d.report[2:], d.held)
	return d.dec.Decode(d.report[:])
}

// Evdev returns the protocol of a wedge scanner read from the Linux
// input subsystem: input_event structs from /dev/input/eventN (package
// drivers/port/evdevport opens one with an exclusive grab). Its decoder
// keeps the keys held and the line typed so far, so each Dev needs a
// Protocol of its own. A nil o means DefaultOpts.
func Evdev(o *Opts) (readers.Protocol, error) {
	t, err := newTypist(o)
	if err != nil {
		return readers.Protocol{}, err
	}
	dec := NewEventDecoder(t.layout)
	return t.protocol(EvdevFormat, "keyboard-wedge scanner, Linux input events (evdev)", EventSize, dec.Decode), nil
}

// NewEvdev reads input events from p, a port whose reads return whole
// input_event structs (as evdevport.Port does).
func NewEvdev(p port.Port, o *Opts) (*Dev, error) {
	proto, err := Evdev(o)
	if err != nil {
		return nil, err
	}
	return open(p, proto, o)
}

// EncodeEvents returns the input events a keyboard sends to type s on
// layout l (nil: US), each key press and release followed by a
// SYN_REPORT, as the kernel delivers them. It is what a scanner does,
// and what simulators and tests play to an EventDecoder.
func EncodeEvents(s string, l *Layout) ([]byte, error) {
	reports, err := Encode(s, l)
	if err != nil {
		return nil, err
	}
	var out []byte
	var prev [ReportLen]byte
	for _, r := range reports {
		// Modifiers go down before the key and up after it.
		out = keyEvents(out, modKeys(prev[0], r[0]), KeyDown)
		out = keyEvents(out, usageKeys(prev[2:], r[2:]), KeyDown)
		out = keyEvents(out, usageKeys(r[2:], prev[2:]), KeyUp)
		out = keyEvents(out, modKeys(r[0], prev[0]), KeyUp)
		copy(prev[:], r)
	}
	return out, nil
}

// keyEvents appends an event with value and a sync for each key.
func keyEvents(out []byte, keys []uint16, value int32) []byte {
	for _, k := range keys {
		out = AppendEvent(out, Event{Type: EvKey, Code: k, Value: value})
		out = AppendEvent(out, Event{Type: EvSyn})
	}
	return out
}

// usageKeys returns the key codes of the usages held in to and not in
// from.
func usageKeys(from, to []byte) []uint16 {
	var out []uint16
	for _, u := range to {
		if u != 0 && !slices.Contains(from, u) {
			k, _ := usageKey(u)
			out = append(out, k)
		}
	}
	return out
}

// modKeys returns the modifier keys whose bits are in to and not in
// from, in a stable order.
func modKeys(from, to byte) []uint16 {
	var out []uint16
	for _, k := range []uint16{29, 42, 56, 125, 97, 54, 100, 126} {
		if m := keyMod[k]; to&m != 0 && from&m == 0 {
			out = append(out, k)
		}
	}
	return out
}
