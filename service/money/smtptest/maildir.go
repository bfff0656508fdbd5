package smtptest

import (
	"bytes"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
)

// Delivered lists the messages a Maildir holds (in new and cur) for
// addresses at domain: each address with the files of its messages. It
// reads what a real server on loopback (the test command's aiosmtpd)
// delivered, so that a test counts its own messages among others'.
func Delivered(maildir, domain string) map[string][]string {
	got := map[string][]string{}
	for _, sub := range []string{"new", "cur"} {
		ents, err := os.ReadDir(filepath.Join(maildir, sub))
		if err != nil {
			continue
		}
		for _, e := range ents {
			path := filepath.Join(maildir, sub, e.Name())
			b, err := os.ReadFile(path)
			if err != nil || !bytes.Contains(b, []byte("@"+domain)) {
				continue
			}
			m, err := mail.ReadMessage(bytes.NewReader(b))
			if err != nil {
				continue
			}
			if to := strings.Trim(m.Header.Get("To"), "<> "); strings.HasSuffix(to, "@"+domain) {
				got[to] = append(got[to], path)
			}
		}
	}
	return got
}

// RemoveDelivered deletes the messages Delivered lists and answers how
// many there were.
func RemoveDelivered(maildir, domain string) int {
	n := 0
	for _, paths := range Delivered(maildir, domain) {
		for _, p := range paths {
			os.Remove(p)
			n++
		}
	}
	return n
}
