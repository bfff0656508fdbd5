//go:build linux

package readersim

import (
	"bytes"

	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/drivers/readers/allflex"
	"github.com/chipdesk/chipdesk/drivers/readers/avid"
	"github.com/chipdesk/chipdesk/drivers/readers/rfidrw"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

// Version is what a simulated RFIDRW-E answers to VER.
const Version = "RFIDRW-E-SIM 308"

// answer reads what drivers send to m and replies as the protocol's
// reader does, until m is closed.
func (s *Sim) answer(m *porttest.PTY) {
	defer s.wg.Done()
	buf := make([]byte, 256)
	var line []byte
	for {
		n, err := m.Read(buf)
		if err != nil {
			return
		}
		for _, c := range buf[:n] {
			switch s.proto.Name {
			case allflex.Format:
				// Every character is echoed; P prints the settings.
				s.reply(m, []byte{c})
				if c == '\r' {
					if bytes.Equal(bytes.TrimSpace(line), []byte("P")) {
						s.reply(m, []byte("\nSIM SETTINGS B000000 S0\r\n"))
					}
					line = line[:0]
					continue
				}
				line = append(line, c)
			case avid.Protocol.Name:
				// A space starts a read; with no chip held, none is found.
				if c == avid.Trigger {
					s.reply(m, []byte(avid.Looking+"\r\n"+avid.NoID+"\r\n"))
				}
			case rfidrw.Format:
				if c == '\r' {
					s.reply(m, append(s.rfidrw(string(bytes.TrimSpace(line))), '\r'))
					line = line[:0]
					continue
				}
				line = append(line, c)
			}
			if len(line) > 64 {
				line = line[:0]
			}
		}
	}
}

// reply writes b to m while m is the line. The write is made without
// the lock: a driver that stopped reading must not keep Hangup (which
// closes m and so ends the write) from taking it.
func (s *Sim) reply(m *porttest.PTY, b []byte) {
	s.mu.Lock()
	live := s.line == m
	s.mu.Unlock()
	if live {
		m.Write(b)
	}
}

// rfidrw answers one RFIDRW-E command (manual rev E, p. 23 status
// codes).
func (s *Sim) rfidrw(cmd string) []byte {
	s.mu.Lock()
	chip, has := s.chip, s.hasHit
	s.mu.Unlock()
	switch {
	case cmd == "VER":
		return []byte(Version)
	case cmd == "SRA", cmd == "SRD", cmd == "RSD", len(cmd) == 3 && (cmd[:2] == "SD" || cmd[:2] == "ST" || cmd[:2] == "SL") && cmd[2] >= '0' && cmd[2] <= '6',
		cmd == "SB0", cmd == "SB1":
		return []byte("OK")
	case cmd == "MOF":
		return []byte("134.2")
	case cmd == "LTG":
		if has {
			return []byte("OK")
		}
		return []byte("?1")
	case cmd == "RAT":
		if !has {
			return []byte("?1")
		}
		c := chip.ISO
		b, err := rfidrw.Line(rfidrw.Frame{
			Country: c.Country(), National: c.National(), RAT: true,
			Animal: c.Animal(), DataBlock: c.DataBlock(), CRC: iso11785.CodeCRC(c),
		})
		if err != nil {
			return []byte("?2")
		}
		return b
	}
	return []byte("?0")
}
