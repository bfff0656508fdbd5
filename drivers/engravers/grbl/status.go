package grbl

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrStatus: the line is not a status report.
var ErrStatus = errors.New("grbl: bad status report")

// StatusReport is a real-time status report,
// "<State|MPos:x,y,z|FS:feed,speed|…>" (gnea/grbl interface.md, "Real-time
// Status Reports"). Fields after the position may be absent or in any
// order; the Has… flags tell which were present.
type StatusReport struct {
	// State is Idle, Run, Hold, Jog, Alarm, Door, Check, Home or Sleep.
	State string
	// Sub is the sub-state of Hold (0 complete, 1 in progress) and Door
	// (0–3); -1 when absent.
	Sub int
	// Pos is MPos or WPos (see Work), one value per axis.
	Pos []float64
	// Work is set when Pos is WPos (work position, $10 = 0).
	Work bool

	HasBuf      bool
	Blocks, RX  int // Bf: planner blocks free, RX bytes free
	HasLine     bool
	Line        int // Ln: line number being executed
	HasFeed     bool
	HasSpeed    bool    // FS: (feed and speed) rather than F: (feed only)
	Feed, Speed float64 // current feed rate and spindle speed (laser power S)
	WCO         []float64
	HasPins     bool
	Pins        string // Pn: triggered inputs, letters of XYZPDHRS
	HasOv       bool
	Ov          [3]int // Ov: feed, rapid, spindle override in percent
	HasAcc      bool
	Acc         string // A: accessories: S spindle CW, C CCW, F flood, M mist
	// Extra holds fields this parser does not know, as received.
	Extra []string
}

// states are the machine states a report may carry.
var states = map[string]bool{
	"Idle": true, "Run": true, "Hold": true, "Jog": true, "Alarm": true,
	"Door": true, "Check": true, "Home": true, "Sleep": true,
}

// ParseStatus decodes one status report line.
func ParseStatus(line string) (StatusReport, error) {
	s := StatusReport{Sub: -1}
	if len(line) < 2 || line[0] != '<' || line[len(line)-1] != '>' {
		return s, fmt.Errorf("%w: %q", ErrStatus, line)
	}
	fields := strings.Split(line[1:len(line)-1], "|")
	state, sub, hasSub := strings.Cut(fields[0], ":")
	if !states[state] {
		return s, fmt.Errorf("%w: state %q", ErrStatus, fields[0])
	}
	s.State = state
	if hasSub {
		if len(sub) != 1 || sub[0] < '0' || sub[0] > '9' {
			return s, fmt.Errorf("%w: sub-state %q", ErrStatus, fields[0])
		}
		s.Sub = int(sub[0] - '0')
	}
	seen := map[string]bool{}
	for _, f := range fields[1:] {
		name, val, ok := strings.Cut(f, ":")
		if !ok || name == "" {
			return s, fmt.Errorf("%w: field %q", ErrStatus, f)
		}
		if seen[name] {
			return s, fmt.Errorf("%w: field %s repeated", ErrStatus, name)
		}
		seen[name] = true
		var err error
		switch name {
		case "MPos", "WPos":
			if s.Pos != nil {
				return s, fmt.Errorf("%w: two positions", ErrStatus)
			}
			s.Work = name == "WPos"
			s.Pos, err = floats(val, 0)
		case "WCO":
			s.WCO, err = floats(val, 0)
		case "Bf":
			var v []int
			v, err = ints(val, 2)
			if err == nil {
				s.HasBuf, s.Blocks, s.RX = true, v[0], v[1]
			}
		case "Ln":
			var v []int
			v, err = ints(val, 1)
			if err == nil {
				s.HasLine, s.Line = true, v[0]
			}
		case "FS", "F":
			if seen["FS"] && seen["F"] {
				return s, fmt.Errorf("%w: both F and FS", ErrStatus)
			}
			n := 1
			if name == "FS" {
				n = 2
			}
			var v []float64
			v, err = floats(val, n)
			if err == nil {
				s.HasFeed, s.HasSpeed, s.Feed = true, n == 2, v[0]
				if n == 2 {
					s.Speed = v[1]
				}
			}
		case "Pn":
			if val == "" || strings.Trim(val, "XYZABCPDHRS") != "" {
				err = ErrStatus
			}
			s.HasPins, s.Pins = true, val
		case "Ov":
			var v []int
			v, err = ints(val, 3)
			if err == nil {
				s.HasOv = true
				copy(s.Ov[:], v)
			}
		case "A":
			if val == "" || strings.Trim(val, "SCFM") != "" {
				err = ErrStatus
			}
			s.HasAcc, s.Acc = true, val
		default:
			if strings.ContainsAny(f, "<>") {
				err = ErrStatus
			}
			s.Extra = append(s.Extra, f)
		}
		if err != nil {
			return s, fmt.Errorf("%w: field %q", ErrStatus, f)
		}
	}
	if s.Pos == nil {
		return s, fmt.Errorf("%w: no position in %q", ErrStatus, line)
	}
	return s, nil
}

func floats(s string, n int) ([]float64, error) {
	parts := strings.Split(s, ",")
	if (n > 0 && len(parts) != n) || len(parts) > 9 {
		return nil, ErrStatus
	}
	out := make([]float64, len(parts))
	for i, p := range parts {
		if p == "" || strings.ContainsAny(p, "eEnNiIxX_+") {
			return nil, ErrStatus
		}
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsInf(v, 0) {
			return nil, ErrStatus
		}
		out[i] = v
	}
	return out, nil
}

func ints(s string, n int) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, ErrStatus
	}
	out := make([]int, n)
	for i, p := range parts {
		if p == "" || len(p) > 9 || strings.Trim(p, "0123456789") != "" {
			return nil, ErrStatus
		}
		out[i], _ = strconv.Atoi(p) // ≤ 9 digits: cannot fail
	}
	return out, nil
}

// number formats v with three decimals as grbl does, or exactly when
// three decimals would change it.
func number(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	if x, _ := strconv.ParseFloat(s, 64); x == v {
		return s
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func joinFloats(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = number(x)
	}
	return strings.Join(parts, ",")
}

// String encodes the report as grbl does: state, position, then the
// optional fields in grbl's order.
func (s StatusReport) String() string {
	var b strings.Builder
	b.WriteString("<" + s.State)
	if s.Sub >= 0 {
		b.WriteString(":" + strconv.Itoa(s.Sub))
	}
	if s.Work {
		b.WriteString("|WPos:")
	} else {
		b.WriteString("|MPos:")
	}
	b.WriteString(joinFloats(s.Pos))
	if s.HasBuf {
		fmt.Fprintf(&b, "|Bf:%d,%d", s.Blocks, s.RX)
	}
	if s.HasLine {
		fmt.Fprintf(&b, "|Ln:%d", s.Line)
	}
	if s.HasFeed {
		if s.HasSpeed {
			b.WriteString("|FS:" + strconv.FormatFloat(s.Feed, 'f', -1, 64) + "," + strconv.FormatFloat(s.Speed, 'f', -1, 64))
		} else {
			b.WriteString("|F:" + strconv.FormatFloat(s.Feed, 'f', -1, 64))
		}
	}
	if s.WCO != nil {
		b.WriteString("|WCO:" + joinFloats(s.WCO))
	}
	if s.HasPins {
		b.WriteString("|Pn:" + s.Pins)
	}
	if s.HasOv {
		fmt.Fprintf(&b, "|Ov:%d,%d,%d", s.Ov[0], s.Ov[1], s.Ov[2])
	}
	if s.HasAcc {
		b.WriteString("|A:" + s.Acc)
	}
	for _, e := range s.Extra {
		b.WriteString("|" + e)
	}
	b.WriteString(">")
	return b.String()
}
