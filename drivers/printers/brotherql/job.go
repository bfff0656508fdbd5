package brotherql

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// InvalidateLen is the number of NUL bytes that flush a half-received
// command before a job.
const InvalidateLen = 200

// Command bytes (raster manuals, command table).
var (
	cmdInitialize   = []byte{0x1B, '@'}
	cmdStatus       = []byte{0x1B, 'i', 'S'}
	cmdRasterMode   = []byte{0x1B, 'i', 'a', 0x01}
	cmdPrintInfo    = []byte{0x1B, 'i', 'z'}
	cmdVariousMode  = []byte{0x1B, 'i', 'M'}
	cmdCutEvery     = []byte{0x1B, 'i', 'A'}
	cmdExpandedMode = []byte{0x1B, 'i', 'K'}
	cmdMargin       = []byte{0x1B, 'i', 'd'}
)

const (
	cmdCompression byte = 'M'
	cmdRaster      byte = 'g'
	cmdZeroRaster  byte = 'Z'
	cmdPrint       byte = 0x0C // print, more pages follow
	cmdPrintLast   byte = 0x1A // print, feed and end the job
)

// Print information valid flags (ESC i z n1): which of n2-n4 the
// printer is to check against the loaded media, plus quality priority
// and recovery. The command reference's QL-700 example sends 0x8E
// (recover | length | width | type) for die-cut labels. This driver
// sends 0xC6 for continuous tape: recover | quality | width | type,
// without "length valid" because continuous tape has no length (n4 is
// 0, and with the bit set the printer would compare it with the roll and
// refuse), and with quality priority (bit 6) asked for because the
// DataMatrix on a tag label must keep its module edges, which the manual
// says the printer may trade for speed otherwise. Die-cut labels get
// 0xCE (the example's bits plus quality); JobOpts.Fast drops quality,
// so a fast die-cut job sends exactly the example's 0x8E.
const (
	validType    = 0x02
	validWidth   = 0x04
	validLength  = 0x08
	validQuality = 0x40
	validRecover = 0x80
)

// Feed margin in dots for continuous tape; die-cut labels take 0.
const continuousMargin = 35

// JobOpts shape a job.
type JobOpts struct {
	// NoCut leaves the labels uncut on models with a cutter.
	NoCut bool
	// NoCompression sends raster lines unpacked even where the model
	// supports PackBits.
	NoCompression bool
	// Fast prints at speed rather than quality (no ESC i z quality flag).
	Fast bool
}

// EncodeJob writes the byte stream of a job of one or more pages.
func EncodeJob(mo Model, me Media, pages []Raster, o *JobOpts) ([]byte, error) {
	if o == nil {
		o = &JobOpts{}
	}
	if err := me.fits(mo); err != nil {
		return nil, err
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("%w: no pages", ErrJob)
	}
	var b bytes.Buffer
	b.Write(make([]byte, InvalidateLen))
	b.Write(cmdInitialize)
	b.Write(cmdStatus)
	if mo.ModeSetting {
		b.Write(cmdRasterMode)
	}
	compress := mo.Compression && !o.NoCompression
	cut := mo.Cutter && !o.NoCut
	for i, p := range pages {
		for k, l := range p.Lines {
			if len(l) != mo.BytesPerLine {
				return nil, fmt.Errorf("%w: page %d line %d has %d bytes, %s takes %d", ErrJob, i+1, k, len(l), mo.Name, mo.BytesPerLine)
			}
		}
		flags := byte(validRecover | validType | validWidth)
		if me.LengthMM > 0 {
			flags |= validLength
		}
		if !o.Fast {
			flags |= validQuality
		}
		b.Write(cmdPrintInfo)
		b.Write([]byte{flags, me.Type, byte(me.WidthMM), byte(me.LengthMM)})
		b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(p.Lines))))
		page := byte(0)
		if i > 0 {
			page = 1
		}
		b.Write([]byte{page, 0})
		if mo.Cutter {
			mode := byte(0)
			if cut {
				mode = 0x40 // auto cut
			}
			b.Write(cmdVariousMode)
			b.WriteByte(mode)
			if cut {
				b.Write(cmdCutEvery)
				b.WriteByte(1)
			}
		}
		if mo.Expanded {
			ex := byte(0)
			if cut {
				ex |= 0x08 // cut at end
			}
			b.Write(cmdExpandedMode)
			b.WriteByte(ex)
		}
		margin := 0
		if me.Type == MediaContinuous {
			margin = continuousMargin
		}
		b.Write(cmdMargin)
		b.Write(binary.LittleEndian.AppendUint16(nil, uint16(margin)))
		if compress {
			b.Write([]byte{cmdCompression, 0x02})
		}
		for _, l := range p.Lines {
			data := l
			if compress {
				data = PackBits(l)
			}
			b.Write([]byte{cmdRaster, 0x00, byte(len(data))})
			b.Write(data)
		}
		if i == len(pages)-1 {
			b.WriteByte(cmdPrintLast)
		} else {
			b.WriteByte(cmdPrint)
		}
	}
	return b.Bytes(), nil
}

// PrintInfo is the content of an ESC i z command.
type PrintInfo struct {
	Flags, MediaType, WidthMM, LengthMM byte
	Lines                               uint32
	Page                                byte // 0 first page, 1 others
}

// Page is one page read back from a job stream.
type Page struct {
	Info        PrintInfo
	VariousMode byte // ESC i M, when HasMode
	HasMode     bool
	CutEvery    byte
	Expanded    byte
	Margin      uint16
	Compressed  bool
	Lines       [][]byte // expanded raster lines
	Last        bool     // ended with SUB (0x1A) rather than FF
}

// ParsedJob is a job stream read back, for tests and for a fake printer.
type ParsedJob struct {
	Invalidate    int  // leading NUL bytes
	StatusRequest bool // ESC i S seen
	RasterMode    bool // ESC i a 1 seen
	Pages         []Page
}

// ErrShort: the bytes end inside a command.
var ErrShort = fmt.Errorf("%w: command cut short", ErrJob)

// NextCommand returns the length of the command at the start of b: 1
// for a NUL of the invalidate run, ErrShort when b ends inside the
// command, ErrJob for an unknown command.
func NextCommand(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, ErrShort
	}
	fixed := func(n int) (int, error) {
		if len(b) < n {
			return 0, ErrShort
		}
		return n, nil
	}
	switch b[0] {
	case 0x00, cmdZeroRaster, cmdPrint, cmdPrintLast:
		return 1, nil
	case cmdCompression:
		return fixed(2)
	case cmdRaster:
		if len(b) < 3 {
			return 0, ErrShort
		}
		return fixed(3 + int(b[2]))
	case 0x1B:
		if len(b) < 2 {
			return 0, ErrShort
		}
		if b[1] == '@' {
			return 2, nil
		}
		if b[1] != 'i' {
			break
		}
		if len(b) < 3 {
			return 0, ErrShort
		}
		switch b[2] {
		case 'S':
			return 3, nil
		case 'a', 'M', 'A', 'K', '!':
			return fixed(4)
		case 'd':
			return fixed(5)
		case 'z':
			return fixed(13)
		}
	}
	return 0, fmt.Errorf("%w: unknown command % x", ErrJob, b[:min(4, len(b))])
}

// ParseJob reads a job stream whose raster lines expand to lineLen
// bytes. It accepts what EncodeJob writes plus zero raster lines ('Z').
func ParseJob(b []byte, lineLen int) (ParsedJob, error) {
	var j ParsedJob
	for len(b) > 0 && b[0] == 0 {
		j.Invalidate++
		b = b[1:]
	}
	var cur *Page
	compressed := false
	need := func(n int) error {
		if len(b) < n {
			return fmt.Errorf("%w: truncated command % x", ErrJob, b)
		}
		return nil
	}
	for len(b) > 0 {
		if _, err := NextCommand(b); err != nil {
			return j, err
		}
		switch {
		case bytes.HasPrefix(b, cmdInitialize):
			b = b[2:]
		case bytes.HasPrefix(b, cmdStatus):
			j.StatusRequest = true
			b = b[3:]
		case bytes.HasPrefix(b, cmdRasterMode[:3]):
			if err := need(4); err != nil {
				return j, err
			}
			j.RasterMode = b[3] == 1
			b = b[4:]
		case bytes.HasPrefix(b, cmdPrintInfo):
			if err := need(13); err != nil {
				return j, err
			}
			j.Pages = append(j.Pages, Page{Info: PrintInfo{
				Flags: b[3], MediaType: b[4], WidthMM: b[5], LengthMM: b[6],
				Lines: binary.LittleEndian.Uint32(b[7:11]), Page: b[11]}, Compressed: compressed})
			cur = &j.Pages[len(j.Pages)-1]
			b = b[13:]
		case bytes.HasPrefix(b, cmdVariousMode), bytes.HasPrefix(b, cmdCutEvery),
			bytes.HasPrefix(b, cmdExpandedMode):
			if err := need(4); err != nil {
				return j, err
			}
			if cur == nil {
				return j, fmt.Errorf("%w: % x before print information", ErrJob, b[:3])
			}
			switch b[2] {
			case 'M':
				cur.VariousMode, cur.HasMode = b[3], true
			case 'A':
				cur.CutEvery = b[3]
			case 'K':
				cur.Expanded = b[3]
			}
			b = b[4:]
		case bytes.HasPrefix(b, cmdMargin):
			if err := need(5); err != nil {
				return j, err
			}
			if cur == nil {
				return j, fmt.Errorf("%w: margin before print information", ErrJob)
			}
			cur.Margin = binary.LittleEndian.Uint16(b[3:5])
			b = b[5:]
		case b[0] == cmdCompression:
			if err := need(2); err != nil {
				return j, err
			}
			compressed = b[1] == 0x02
			if cur != nil {
				cur.Compressed = compressed
			}
			b = b[2:]
		case b[0] == cmdRaster:
			if err := need(3); err != nil {
				return j, err
			}
			n := int(b[2])
			if err := need(3 + n); err != nil {
				return j, err
			}
			if cur == nil {
				return j, fmt.Errorf("%w: raster line before print information", ErrJob)
			}
			data := b[3 : 3+n]
			if compressed {
				l, err := UnpackBits(data, lineLen)
				if err != nil {
					return j, fmt.Errorf("%w: line %d: %w", ErrJob, len(cur.Lines), err)
				}
				data = l
			} else if n != lineLen {
				return j, fmt.Errorf("%w: line %d has %d bytes, want %d", ErrJob, len(cur.Lines), n, lineLen)
			}
			cur.Lines = append(cur.Lines, bytes.Clone(data))
			b = b[3+n:]
		case b[0] == cmdZeroRaster:
			if cur == nil {
				return j, fmt.Errorf("%w: raster line before print information", ErrJob)
			}
			cur.Lines = append(cur.Lines, make([]byte, lineLen))
			b = b[1:]
		case b[0] == cmdPrint || b[0] == cmdPrintLast:
			if cur == nil {
				return j, fmt.Errorf("%w: print before print information", ErrJob)
			}
			cur.Last = b[0] == cmdPrintLast
			if uint32(len(cur.Lines)) != cur.Info.Lines {
				return j, fmt.Errorf("%w: page %d has %d lines, print information says %d", ErrJob, len(j.Pages), len(cur.Lines), cur.Info.Lines)
			}
			cur = nil
			b = b[1:]
			if j.Pages[len(j.Pages)-1].Last && len(b) > 0 {
				return j, fmt.Errorf("%w: % x after the last page", ErrJob, b[:min(8, len(b))])
			}
		default:
			return j, fmt.Errorf("%w: unknown command % x", ErrJob, b[:min(4, len(b))])
		}
	}
	if len(j.Pages) == 0 || !j.Pages[len(j.Pages)-1].Last || cur != nil {
		return j, fmt.Errorf("%w: no final print command", ErrJob)
	}
	return j, nil
}
