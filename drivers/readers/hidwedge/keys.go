package hidwedge

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Errors of the key decoder and encoder.
var (
	// ErrReport reports a keyboard report that is not 8 bytes.
	ErrReport = errors.New("hidwedge: keyboard report is not 8 bytes")
	// ErrUnmappable reports a character the layout cannot type.
	ErrUnmappable = errors.New("hidwedge: character not on the layout")
	// ErrLayout reports an unknown layout name.
	ErrLayout = errors.New("hidwedge: unknown keyboard layout")
)

// Boot keyboard report (HID 1.11 appendix B.1): byte 0 modifiers, byte 1
// reserved, bytes 2-7 the usages of up to six keys held down.
const ReportLen = 8

// Modifier bits of byte 0 (HID 1.11 §8.3, usages 0xE0-0xE7).
const (
	modLCtrl  = 0x01
	modLShift = 0x02
	modLAlt   = 0x04
	modLGUI   = 0x08
	modRCtrl  = 0x10
	modRShift = 0x20
	modRAlt   = 0x40 // AltGr on European layouts
	modRGUI   = 0x80
)

// Keyboard page usages with a meaning of their own (HID Usage Tables
// 1.12 §10).
const (
	usageErrorRollOver = 0x01
	usageEnter         = 0x28
	usageEscape        = 0x29
	usageBackspace     = 0x2a
	usageTab           = 0x2b
	usageCapsLock      = 0x39
	usageKPEnter       = 0x58
)

// Control characters the decoder returns for keys that are not text.
const (
	Enter     = '\n'
	Tab       = '\t'
	Backspace = '\b'
)

// level is a key's characters: plain, with Shift, with AltGr.
type level [3]rune

// Layout maps keyboard usages to characters, as the scanner was set up
// to type them.
type Layout struct {
	name string
	keys map[byte]level
}

func (l *Layout) String() string { return l.name }

// LayoutByName returns "us" (the default of every scanner) or "de".
func LayoutByName(name string) (*Layout, error) {
	switch strings.ToLower(name) {
	case "", "us":
		return US(), nil
	case "de":
		return DE(), nil
	}
	return nil, fmt.Errorf("%w %q (have us, de)", ErrLayout, name)
}

// common holds the keys every layout shares: digits on the keypad and
// the whitespace keys (HID Usage Tables 1.12 §10, usages 0x2c, 0x54-0x63).
func common() map[byte]level {
	m := map[byte]level{
		0x2c: {' ', ' ', 0},
		0x54: {'/', '/', 0},
		0x55: {'*', '*', 0},
		0x56: {'-', '-', 0},
		0x57: {'+', '+', 0},
		0x63: {'.', '.', 0},
	}
	for i := range 9 { // keypad 1-9 are 0x59-0x61, keypad 0 is 0x62
		d := rune('1' + i)
		m[byte(0x59+i)] = level{d, d, 0}
	}
	m[0x62] = level{'0', '0', 0}
	return m
}

// letters adds a-z at usages 0x04-0x1d.
func letters(m map[byte]level) {
	for i := range 26 {
		m[byte(0x04+i)] = level{rune('a' + i), rune('A' + i), 0}
	}
}

// US is the US English layout.
func US() *Layout {
	m := common()
	letters(m)
	digits := "1234567890"
	shifted := "!@#$%^&*()"
	for i := range 10 {
		m[byte(0x1e+i)] = level{rune(digits[i]), rune(shifted[i]), 0}
	}
	for u, p := range map[byte][2]rune{
		0x2d: {'-', '_'}, 0x2e: {'=', '+'}, 0x2f: {'[', '{'}, 0x30: {']', '}'},
		0x31: {'\\', '|'}, 0x33: {';', ':'}, 0x34: {'\'', '"'}, 0x35: {'`', '~'},
		0x36: {',', '<'}, 0x37: {'.', '>'}, 0x38: {'/', '?'},
	} {
		m[u] = level{p[0], p[1], 0}
	}
	return &Layout{name: "us", keys: m}
}

// DE is the German layout (QWERTZ), with the AltGr characters a scanner
// may type.
func DE() *Layout {
	m := common()
	letters(m)
	m[0x1c] = level{'z', 'Z', 0}
	m[0x1d] = level{'y', 'Y', 0}
	m[0x14] = level{'q', 'Q', '@'}
	m[0x08] = level{'e', 'E', '€'}
	digits := []rune("1234567890")
	shifted := []rune("!\"§$%&/()=")
	altgr := map[int]rune{1: '²', 2: '³', 6: '{', 7: '[', 8: ']', 9: '}'}
	for i := range 10 {
		m[byte(0x1e+i)] = level{digits[i], shifted[i], altgr[i]}
	}
	for u, l := range map[byte]level{
		0x2d: {'ß', '?', '\\'}, 0x2e: {'´', '`', 0}, 0x2f: {'ü', 'Ü', 0}, 0x30: {'+', '*', '~'},
		0x32: {'#', '\'', 0}, 0x33: {'ö', 'Ö', 0}, 0x34: {'ä', 'Ä', 0}, 0x35: {'^', '°', 0},
		0x36: {',', ';', 0}, 0x37: {'.', ':', 0}, 0x38: {'-', '_', 0}, 0x64: {'<', '>', '|'},
	} {
		m[u] = l
	}
	return &Layout{name: "de", keys: m}
}

// Decoder turns boot keyboard reports into characters. It reports each
// key once, when it goes down, so a report repeated while a key is held
// types nothing more.
type Decoder struct {
	layout *Layout
	prev   [6]byte
	caps   bool
}

// NewDecoder returns a decoder for l; nil means US.
func NewDecoder(l *Layout) *Decoder {
	if l == nil {
		l = US()
	}
	return &Decoder{layout: l}
}

// Reset forgets the keys held down and Caps Lock.
func (d *Decoder) Reset() { d.prev, d.caps = [6]byte{}, false }

// Decode returns the characters of the keys that went down in report:
// text, and Enter, Tab and Backspace as '\n', '\t' and '\b'. Keys with
// Ctrl, Alt (left) or GUI held, and keys the layout lacks, type nothing.
// A phantom report (every slot ErrorRollOver, HID Usage Tables 1.12
// §10 usage 0x01) is ignored, keys and all.
func (d *Decoder) Decode(report []byte) ([]rune, error) {
	if len(report) != ReportLen {
		return nil, fmt.Errorf("%w: %d bytes", ErrReport, len(report))
	}
	keys := report[2:8]
	if keys[0] == usageErrorRollOver {
		return nil, nil
	}
	mods := report[0]
	shift := mods&(modLShift|modRShift) != 0
	altgr := mods&modRAlt != 0
	command := mods&(modLCtrl|modRCtrl|modLAlt|modLGUI|modRGUI) != 0
	var out []rune
	for _, k := range keys {
		if k == 0 || slices.Contains(d.prev[:], k) {
			continue
		}
		switch k {
		case usageEnter, usageKPEnter:
			out = append(out, Enter)
			continue
		case usageTab:
			out = append(out, Tab)
			continue
		case usageBackspace:
			out = append(out, Backspace)
			continue
		case usageCapsLock:
			d.caps = !d.caps
			continue
		}
		if command {
			continue
		}
		l, ok := d.layout.keys[k]
		if !ok {
			continue
		}
		var r rune
		switch {
		case altgr:
			r = l[2]
		case shift != (d.caps && isLetter(l)):
			r = l[1]
		default:
			r = l[0]
		}
		if r != 0 {
			out = append(out, r)
		}
	}
	copy(d.prev[:], keys)
	return out, nil
}

// isLetter tells whether Caps Lock shifts the key.
func isLetter(l level) bool {
	return l[0] != l[1] && strings.ToUpper(string(l[0])) == string(l[1])
}

// Encode returns the reports a keyboard sends to type s on layout l
// (nil: US): each character is a key press then a release. '\n' is
// Enter, '\t' Tab, '\b' Backspace. It is what a scanner does, and what
// simulators and tests play to a Decoder.
func Encode(s string, l *Layout) ([][]byte, error) {
	if l == nil {
		l = US()
	}
	rev := l.reverse()
	var out [][]byte
	for _, r := range s {
		var mods, usage byte
		switch r {
		case Enter:
			usage = usageEnter
		case Tab:
			usage = usageTab
		case Backspace:
			usage = usageBackspace
		default:
			k, ok := rev[r]
			if !ok {
				return nil, fmt.Errorf("%w: %q on %s", ErrUnmappable, r, l)
			}
			usage = k.usage
			switch k.level {
			case 1:
				mods = modLShift
			case 2:
				mods = modRAlt
			}
		}
		out = append(out, []byte{mods, 0, usage, 0, 0, 0, 0, 0}, make([]byte, ReportLen))
	}
	return out, nil
}

type keyLevel struct {
	usage byte
	level int
}

// reverse maps characters to the lowest usage that types them, so that
// the main-row digits are preferred to the keypad.
func (l *Layout) reverse() map[rune]keyLevel {
	rev := map[rune]keyLevel{}
	usages := make([]byte, 0, len(l.keys))
	for u := range l.keys {
		usages = append(usages, u)
	}
	slices.Sort(usages)
	for _, u := range usages {
		for lv, r := range l.keys[u] {
			if r == 0 {
				continue
			}
			if _, ok := rev[r]; !ok {
				rev[r] = keyLevel{u, lv}
			}
		}
	}
	return rev
}
