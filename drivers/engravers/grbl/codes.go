package grbl

import (
	"fmt"

	"github.com/chipdesk/chipdesk/drivers/engravers"
)

// errorText holds the meaning of each error:N reply, in our words, after
// gnea/grbl doc/csv/error_codes_en_US.csv (grbl 1.1).
var errorText = map[int]string{
	1:  "expected a command letter",
	2:  "bad number format",
	3:  "invalid $ statement",
	4:  "negative value",
	5:  "homing not enabled ($22)",
	6:  "step pulse below 3 µs",
	7:  "EEPROM read failed, defaults restored",
	8:  "$ command only when idle",
	9:  "g-code locked out by alarm or jog",
	10: "soft limits need homing enabled",
	11: "line longer than 80 characters",
	12: "step rate above 30 kHz",
	13: "safety door open",
	14: "startup line or build info too long for EEPROM",
	15: "jog target beyond machine travel",
	16: "invalid jog command",
	17: "laser mode needs PWM output",
	20: "unsupported or invalid g-code command",
	21: "more than one command of a modal group",
	22: "feed rate not set",
	23: "command needs an integer value",
	24: "two commands in the block need axis words",
	25: "word repeated in the block",
	26: "no axis words where the command needs them",
	27: "line number out of range",
	28: "a required value word is missing",
	29: "G59.x work coordinate systems not supported",
	30: "G53 only with G0 or G1",
	31: "axis words the command does not use",
	32: "G2/G3 arc needs an axis word in the plane",
	33: "motion target invalid",
	34: "arc radius invalid",
	35: "G2/G3 arc needs an offset word in the plane",
	36: "value words the block does not use",
	37: "G43.1 offset not on the tool length axis",
	38: "tool number above the maximum",
}

// alarmText holds the meaning of each ALARM:N, after gnea/grbl
// doc/csv/alarm_codes_en_US.csv (grbl 1.1).
var alarmText = map[int]string{
	1:  "hard limit triggered; position lost, re-home",
	2:  "soft limit: target beyond machine travel",
	3:  "reset while in motion; position lost, re-home",
	4:  "probe not in the expected initial state",
	5:  "probe did not touch within travel",
	6:  "homing reset during the cycle",
	7:  "safety door opened during homing",
	8:  "homing pull-off did not clear the switch",
	9:  "homing switch not found within travel",
	10: "dual-axis homing failed",
}

// ErrorText returns the meaning of error:code, or "" when unknown.
func ErrorText(code int) string { return errorText[code] }

// AlarmText returns the meaning of ALARM:code, or "" when unknown.
func AlarmText(code int) string { return alarmText[code] }

// Error is an error:N reply to a line.
type Error struct {
	Code int
	// Line is the 1-based number of the line in the job that got the
	// error, 0 outside a job.
	Line int
	// Text is that line.
	Text string
}

func (e *Error) Error() string {
	m := errorText[e.Code]
	if m == "" {
		m = "unknown error"
	}
	if e.Line > 0 {
		return fmt.Sprintf("grbl: error:%d (%s) on line %d %q", e.Code, m, e.Line, e.Text)
	}
	return fmt.Sprintf("grbl: error:%d (%s) on %q", e.Code, m, e.Text)
}

// Alarm is an ALARM:N the controller reported. It matches
// engravers.ErrAlarm with errors.Is.
type Alarm int

func (a Alarm) Error() string {
	m := alarmText[int(a)]
	if m == "" {
		m = "unknown alarm"
	}
	return fmt.Sprintf("grbl: ALARM:%d (%s)", int(a), m)
}

// Is makes errors.Is(err, engravers.ErrAlarm) true for an Alarm.
func (a Alarm) Is(target error) bool { return target == engravers.ErrAlarm }
