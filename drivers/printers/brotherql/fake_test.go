package brotherql_test

import (
	"sync"

	"github.com/chipdesk/chipdesk/drivers/printers/brotherql"
)

// fakeQL plays a Brother QL on the byte level: it answers ESC i S with
// its status, keeps every job (from the first command after the
// invalidate run to SUB) and after each page reports "printing
// completed" and the phase change back to waiting. Replies go to reply;
// over the network reply is nil, as a QL sends nothing there.
type fakeQL struct {
	lineLen int
	reply   func([]byte)

	mu     sync.Mutex
	status brotherql.Status
	// failPrint, when set, is reported as an error status instead of
	// "printing completed".
	failPrint *brotherql.Status
	buf       []byte
	job       []byte
	jobs      [][]byte
	requests  int
}

func newFakeQL(mo brotherql.Model, me brotherql.Media, reply func([]byte)) *fakeQL {
	return &fakeQL{lineLen: mo.BytesPerLine, reply: reply, status: brotherql.Status{
		Series: '0', Model: mo.Code, Country: '0', MediaWidth: byte(me.WidthMM),
		MediaType: me.Type, MediaLength: byte(me.LengthMM),
	}}
}

func (f *fakeQL) set(fn func(*brotherql.Status)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(&f.status)
}

func (f *fakeQL) Jobs() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]byte(nil), f.jobs...)
}

func (f *fakeQL) Requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

// write takes bytes the host sent.
func (f *fakeQL) write(p []byte) {
	f.mu.Lock()
	f.buf = append(f.buf, p...)
	var out [][]byte
	for {
		n, err := brotherql.NextCommand(f.buf)
		if err != nil {
			break // incomplete (or garbage: a real printer would wait too)
		}
		cmd := f.buf[:n]
		switch {
		case n == 1 && cmd[0] == 0:
			f.job = nil // invalidate
		case string(cmd) == "\x1b@":
			f.job = append(f.job[:0], cmd...)
		case string(cmd) == "\x1biS":
			f.requests++
			f.job = append(f.job, cmd...)
			st := f.status
			st.Type = brotherql.StatusReply
			out = append(out, st.Encode())
		default:
			f.job = append(f.job, cmd...)
		}
		if n == 1 && (cmd[0] == 0x0C || cmd[0] == 0x1A) {
			st := f.status
			st.Type, st.Phase = brotherql.StatusPhaseChange, brotherql.PhasePrinting
			out = append(out, st.Encode())
			if f.failPrint != nil {
				e := *f.failPrint
				e.Type = brotherql.StatusError
				out = append(out, e.Encode())
			} else {
				st.Type = brotherql.StatusPrinted
				out = append(out, st.Encode())
				st.Type, st.Phase = brotherql.StatusPhaseChange, brotherql.PhaseWaiting
				out = append(out, st.Encode())
			}
			if cmd[0] == 0x1A {
				f.jobs = append(f.jobs, append([]byte(nil), f.job...))
				f.job = nil
			}
		}
		f.buf = f.buf[n:]
	}
	f.mu.Unlock()
	if f.reply != nil {
		for _, o := range out {
			f.reply(o)
		}
	}
}
