// Package smtptest is a small SMTP server on loopback for tests: it
// keeps the messages it is given, and offers STARTTLS (RFC 3207) with a
// certificate of its own when asked to, so that a client's TLS policy
// can be tried both ways. It implements the commands of RFC 5321 a
// mail client sends (EHLO, HELO, STARTTLS, MAIL, RCPT, DATA, RSET,
// NOOP, QUIT) and nothing more.
package smtptest

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"strings"
	"sync"
	"time"
)

// Message is one message the server accepted.
type Message struct {
	From string
	To   []string
	Data []byte
	// TLS is true when it came over a STARTTLS connection.
	TLS bool
}

// Server is a running test server.
type Server struct {
	ln   net.Listener
	tls  *tls.Config
	caPE []byte

	mu    sync.Mutex
	msgs  []Message
	conns map[net.Conn]bool
	wg    sync.WaitGroup
}

// Opts configure a server.
type Opts struct {
	// STARTTLS makes the server offer STARTTLS with a fresh self-signed
	// certificate for 127.0.0.1 (CAPEM gives it to the client).
	STARTTLS bool
	// Refuse lists recipient addresses answered 550.
	Refuse []string
}

// Start listens on 127.0.0.1 and serves until Close.
func Start(o *Opts) (*Server, error) {
	if o == nil {
		o = &Opts{}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{ln: ln, conns: map[net.Conn]bool{}}
	if o.STARTTLS {
		if s.tls, s.caPE, err = selfSigned(); err != nil {
			ln.Close()
			return nil, err
		}
	}
	refuse := map[string]bool{}
	for _, r := range o.Refuse {
		refuse[strings.ToLower(r)] = true
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns[c] = true
			s.mu.Unlock()
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				s.serve(c, refuse)
				s.mu.Lock()
				delete(s.conns, c)
				s.mu.Unlock()
			}()
		}
	}()
	return s, nil
}

// Addr is the server's HOST:PORT.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// CAPEM is the PEM certificate the server's TLS uses (nil without
// STARTTLS).
func (s *Server) CAPEM() []byte { return s.caPE }

// Messages returns the messages accepted so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// Close stops the server, ends its connections and waits for them.
func (s *Server) Close() error {
	err := s.ln.Close()
	s.mu.Lock()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return err
}

func (s *Server) serve(c net.Conn, refuse map[string]bool) {
	defer c.Close()
	var (
		r      = bufio.NewReader(c)
		w      = bufio.NewWriter(c)
		secure bool
		from   string
		to     []string
	)
	say := func(lines ...string) bool {
		for _, l := range lines {
			w.WriteString(l + "\r\n")
		}
		return w.Flush() == nil
	}
	if !say("220 127.0.0.1 smtptest ESMTP") {
		return
	}
	for {
		c.SetReadDeadline(time.Now().Add(time.Minute))
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO":
			ext := []string{"250-127.0.0.1", "250-8BITMIME"}
			if s.tls != nil && !secure {
				ext = append(ext, "250-STARTTLS")
			}
			say(append(ext, "250 HELP")...)
		case "HELO":
			say("250 127.0.0.1")
		case "STARTTLS":
			if s.tls == nil || secure {
				say("502 not offered")
				continue
			}
			say("220 ready to start TLS")
			tc := tls.Server(c, s.tls)
			if tc.Handshake() != nil {
				return
			}
			c, secure = tc, true
			r, w = bufio.NewReader(c), bufio.NewWriter(c)
			from, to = "", nil
		case "MAIL":
			from, to = addrOf(arg), nil
			say("250 OK")
		case "RCPT":
			a := addrOf(arg)
			if refuse[strings.ToLower(a)] {
				say("550 5.1.1 no such user")
				continue
			}
			to = append(to, a)
			say("250 OK")
		case "DATA":
			if from == "" || len(to) == 0 {
				say("503 need MAIL and RCPT")
				continue
			}
			say("354 end with <CRLF>.<CRLF>")
			var data bytes.Buffer
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" || l == ".\n" {
					break
				}
				data.WriteString(strings.TrimPrefix(l, "."))
			}
			s.mu.Lock()
			s.msgs = append(s.msgs, Message{From: from, To: to, Data: data.Bytes(), TLS: secure})
			s.mu.Unlock()
			from, to = "", nil
			say("250 OK queued")
		case "RSET":
			from, to = "", nil
			say("250 OK")
		case "NOOP":
			say("250 OK")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("502 not implemented")
		}
	}
}

// addrOf reads the address of "FROM:<a@b>" or "TO:<a@b> ...".
func addrOf(arg string) string {
	_, a, _ := strings.Cut(arg, "<")
	a, _, _ = strings.Cut(a, ">")
	return a
}

// selfSigned makes a certificate for 127.0.0.1 valid for a day.
func selfSigned() (*tls.Config, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	cert := tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), nil
}
