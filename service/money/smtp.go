package money

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	mail "github.com/wneessen/go-mail"
)

// TLS modes of an SMTP connection.
const (
	// TLSAuto uses STARTTLS when the server offers it and plain SMTP when
	// it does not (a relay on the same host).
	TLSAuto = "auto"
	// TLSRequired refuses to send over a connection without STARTTLS.
	TLSRequired = "required"
	// TLSNone never starts TLS.
	TLSNone = "none"
)

// SMTPOpts configures an SMTP mailer.
type SMTPOpts struct {
	// Addr is the server, HOST:PORT.
	Addr string
	// From is the envelope and header sender.
	From string
	// TLS is TLSAuto (the default), TLSRequired or TLSNone.
	TLS string
	// TLSConfig verifies the server (nil: the system's roots, the
	// server name from Addr).
	TLSConfig *tls.Config
	// Username and Password authenticate (SMTP AUTH PLAIN) when set.
	Username, Password string
	// Timeout bounds each exchange with the server; 0 means 30 s.
	Timeout time.Duration
	// Now dates the messages; nil means time.Now.
	Now func() time.Time
}

// SMTP sends mail through one connection to an SMTP server, kept open
// across messages (github.com/wneessen/go-mail).
type SMTP struct {
	c      *mail.Client
	from   string
	now    func() time.Time
	dialed bool
}

// NewSMTP returns an SMTP mailer; it connects on the first Send.
func NewSMTP(o *SMTPOpts) (*SMTP, error) {
	host, ps, err := net.SplitHostPort(o.Addr)
	port, perr := strconv.Atoi(ps)
	if err != nil || perr != nil || host == "" {
		return nil, fmt.Errorf("money: smtp server %q: want HOST:PORT", o.Addr)
	}
	if o.From == "" {
		return nil, errors.New("money: smtp: a sender address (From) is required")
	}
	policy := mail.TLSOpportunistic
	switch o.TLS {
	case "", TLSAuto:
	case TLSRequired:
		policy = mail.TLSMandatory
	case TLSNone:
		policy = mail.NoTLS
	default:
		return nil, fmt.Errorf("money: smtp tls %q: want auto, required or none", o.TLS)
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	cfg := o.TLSConfig
	if cfg == nil {
		cfg = &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	}
	opts := []mail.Option{mail.WithPort(port), mail.WithTLSPolicy(policy), mail.WithTLSConfig(cfg),
		mail.WithTimeout(timeout), mail.WithoutNoop()}
	if o.Username != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthPlain), mail.WithUsername(o.Username), mail.WithPassword(o.Password))
	}
	c, err := mail.NewClient(host, opts...)
	if err != nil {
		return nil, fmt.Errorf("money: smtp: %w", err)
	}
	s := &SMTP{c: c, from: o.From, now: o.Now}
	if s.now == nil {
		s.now = time.Now
	}
	return s, nil
}

// Send implements Mailer. A recipient the server refuses for good is a
// *BadAddressError; any other failure leaves the connection to be made
// again by the next Send.
func (s *SMTP) Send(ctx context.Context, m *Mail) error {
	msg := mail.NewMsg()
	if err := msg.From(s.from); err != nil {
		return fmt.Errorf("money: smtp sender %q: %w", s.from, err)
	}
	if err := msg.To(m.To); err != nil {
		return &BadAddressError{err}
	}
	msg.Subject(m.Subject)
	msg.SetMessageIDWithValue(m.MessageID)
	msg.SetDateWithValue(s.now())
	msg.SetBodyString(mail.TypeTextPlain, m.Body)
	if !s.dialed {
		if err := s.c.DialWithContext(ctx); err != nil {
			// Refused, or no STARTTLS where it is required: nothing
			// was sent.
			return fmt.Errorf("money: smtp: %w: %w", ErrNotSent, err)
		}
		s.dialed = true
	}
	err := s.c.Send(msg)
	if err == nil {
		return nil
	}
	var se *mail.SendError
	if errors.As(err, &se) && se.Reason == mail.ErrSMTPRcptTo && !se.IsTemp() {
		return &BadAddressError{err}
	}
	s.c.Close()
	s.dialed = false
	if errors.As(err, &se) {
		switch se.Reason {
		case mail.ErrGetSender, mail.ErrGetRcpts, mail.ErrSMTPMailFrom, mail.ErrSMTPRcptTo, mail.ErrSMTPData,
			mail.ErrWriteContent, mail.ErrConnCheck, mail.ErrNoUnencoded:
			// Failed before the server took the message's end.
			return fmt.Errorf("money: smtp: %w: %w", ErrNotSent, err)
		}
	}
	return fmt.Errorf("money: smtp: %w", err)
}

// Close ends the connection.
func (s *SMTP) Close() error {
	if !s.dialed {
		return nil
	}
	s.dialed = false
	return s.c.Close()
}
