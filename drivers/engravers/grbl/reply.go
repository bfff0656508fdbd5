package grbl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Kind is the kind of a line the controller sends.
type Kind int

// Kinds of replies (gnea/grbl doc/markdown/interface.md, "Grbl
// Response Messages" and "Push Messages").
const (
	KindOK       Kind = iota + 1 // ok
	KindError                    // error:N
	KindAlarm                    // ALARM:N
	KindStatus                   // <…> status report
	KindWelcome                  // Grbl 1.1h ['$' for help]
	KindMessage                  // [MSG:…]
	KindFeedback                 // other […] lines: [GC:…], [VER:…], [OPT:…], [HLP:…]
	KindSetting                  // $n=value
	KindStartup                  // >line:ok or >line:error:N
)

var kindNames = [...]string{"", "ok", "error", "alarm", "status", "welcome", "message", "feedback", "setting", "startup"}

func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// ErrReply: the line is not a reply grbl sends.
var ErrReply = errors.New("grbl: unrecognised reply")

// Reply is one line from the controller, without its CR LF.
type Reply struct {
	Kind Kind
	// Code is N of error:N and ALARM:N.
	Code int
	// Text is the version of a welcome line ("1.1h"), the text of a
	// message or feedback line, the "n=value" of a setting, or the line
	// of a startup report.
	Text string
	// Status is the report of a KindStatus line.
	Status StatusReport
}

// welcome lines look like "Grbl 1.1h ['$' for help]".
const (
	welcomePrefix = "Grbl "
	welcomeSuffix = " ['$' for help]"
)

// ParseReply classifies one line (CR and LF already removed).
func ParseReply(line string) (Reply, error) {
	switch {
	case line == "ok":
		return Reply{Kind: KindOK}, nil
	case strings.HasPrefix(line, "error:"):
		n, err := code(line[len("error:"):])
		if err != nil {
			return Reply{}, fmt.Errorf("%w: %q", ErrReply, line)
		}
		return Reply{Kind: KindError, Code: n}, nil
	case strings.HasPrefix(line, "ALARM:"):
		n, err := code(line[len("ALARM:"):])
		if err != nil {
			return Reply{}, fmt.Errorf("%w: %q", ErrReply, line)
		}
		return Reply{Kind: KindAlarm, Code: n}, nil
	case strings.HasPrefix(line, "<"):
		s, err := ParseStatus(line)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Kind: KindStatus, Status: s}, nil
	case len(line) > len(welcomePrefix)+len(welcomeSuffix) && strings.HasPrefix(line, welcomePrefix) && strings.HasSuffix(line, welcomeSuffix):
		v := line[len(welcomePrefix) : len(line)-len(welcomeSuffix)]
		if v == "" || strings.ContainsAny(v, " \r\n") {
			return Reply{}, fmt.Errorf("%w: %q", ErrReply, line)
		}
		return Reply{Kind: KindWelcome, Text: v}, nil
	case strings.HasPrefix(line, "[MSG:") && strings.HasSuffix(line, "]"):
		return Reply{Kind: KindMessage, Text: line[len("[MSG:") : len(line)-1]}, nil
	case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") && len(line) >= 2:
		return Reply{Kind: KindFeedback, Text: line[1 : len(line)-1]}, nil
	case strings.HasPrefix(line, "$") && strings.Contains(line, "="):
		return Reply{Kind: KindSetting, Text: line[1:]}, nil
	case strings.HasPrefix(line, ">") && len(line) > 1:
		return Reply{Kind: KindStartup, Text: line[1:]}, nil
	}
	return Reply{}, fmt.Errorf("%w: %q", ErrReply, line)
}

// code reads the decimal N of error:N / ALARM:N (1 to 3 digits).
func code(s string) (int, error) {
	if len(s) == 0 || len(s) > 3 || (len(s) > 1 && s[0] == '0') {
		return 0, ErrReply
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, ErrReply
		}
	}
	return strconv.Atoi(s)
}

// String returns the line as grbl sends it, without CR LF.
func (r Reply) String() string {
	switch r.Kind {
	case KindOK:
		return "ok"
	case KindError:
		return "error:" + strconv.Itoa(r.Code)
	case KindAlarm:
		return "ALARM:" + strconv.Itoa(r.Code)
	case KindStatus:
		return r.Status.String()
	case KindWelcome:
		return welcomePrefix + r.Text + welcomeSuffix
	case KindMessage:
		return "[MSG:" + r.Text + "]"
	case KindFeedback:
		return "[" + r.Text + "]"
	case KindSetting:
		return "$" + r.Text
	case KindStartup:
		return ">" + r.Text
	}
	return ""
}
