package demod

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Format is the encoding of a trace file.
type Format string

// Trace formats.
const (
	FormatPM3   Format = "pm3"   // text, one signed integer sample per line
	FormatInt8  Format = "int8"  // raw signed bytes
	FormatInt16 Format = "int16" // raw signed 16-bit little-endian
)

// ErrTrace reports a trace file that cannot be read.
var ErrTrace = errors.New("demod: bad trace")

// maxTrace bounds a trace read into memory (samples).
const maxTrace = 1 << 28

// ReadTrace reads a whole trace in format f. Proxmark .pm3 files hold
// one signed sample per line (blank lines are skipped, CR LF accepted);
// values are clamped to the int16 range.
func ReadTrace(r io.Reader, f Format) ([]int16, error) {
	switch f {
	case FormatPM3:
		return readPM3(r)
	case FormatInt8, FormatInt16:
		b, err := io.ReadAll(io.LimitReader(r, maxTrace*2+1))
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrTrace, err)
		}
		if f == FormatInt8 {
			s := make([]int16, len(b))
			for i, x := range b {
				s[i] = int16(int8(x))
			}
			return s, nil
		}
		if len(b)%2 != 0 {
			return nil, fmt.Errorf("%w: odd length %d for int16 samples", ErrTrace, len(b))
		}
		s := make([]int16, len(b)/2)
		for i := range s {
			s[i] = int16(uint16(b[2*i]) | uint16(b[2*i+1])<<8)
		}
		return s, nil
	}
	return nil, fmt.Errorf("%w: unknown format %q", ErrTrace, f)
}

func readPM3(r io.Reader) ([]int16, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 4096)
	var s []int16
	line := 0
	for sc.Scan() {
		line++
		t := bytes.TrimSpace(sc.Bytes())
		if len(t) == 0 {
			continue
		}
		v, err := strconv.ParseInt(string(t), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %q is not a sample", ErrTrace, line, clip(t))
		}
		if len(s) >= maxTrace {
			return nil, fmt.Errorf("%w: more than %d samples", ErrTrace, maxTrace)
		}
		s = append(s, int16(min(max(v, -32768), 32767)))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: line %d: %w", ErrTrace, line+1, err)
	}
	return s, nil
}

func clip(b []byte) []byte {
	if len(b) > 20 {
		return b[:20]
	}
	return b
}

// WritePM3 writes samples in the Proxmark .pm3 text form.
func WritePM3(w io.Writer, s []int16) error {
	bw := bufio.NewWriter(w)
	var buf [8]byte
	for _, v := range s {
		b := strconv.AppendInt(buf[:0], int64(v), 10)
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return fmt.Errorf("demod: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("demod: %w", err)
	}
	return nil
}
