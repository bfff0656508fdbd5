package money

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"strconv"
	"time"

	mail "github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"
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
// across messages (github.com/wneessen/go-mail makes the connection,
// its TLS and its authentication, and writes each message). A message is
// MAIL, RCPT, DATA and its text: RFC 5321 (4.1.1.4) ends the
// transaction with the message, so no RSET follows it (go-mail's own
// Send sends one after each message, a fifth exchange with the server).
type SMTP struct {
	c       *mail.Client
	conn    *smtp.Client
	from    string
	now     func() time.Time
	timeout time.Duration
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
	s := &SMTP{c: c, from: o.From, now: o.Now, timeout: timeout}
	if s.now == nil {
		s.now = time.Now
	}
	return s, nil
}

// Send implements Mailer. A recipient the server refuses for good is a
// *BadAddressError; a failure after which the server certainly does not
// have the message wraps ErrNotSent; any failure but a refused
// recipient leaves the connection to be made again by the next Send.
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
	if s.conn == nil {
		conn, err := s.c.DialToSMTPClientWithContext(ctx)
		if err != nil {
			// Refused, or no STARTTLS where it is required: nothing
			// was sent.
			return fmt.Errorf("money: smtp: %w: %w", ErrNotSent, err)
		}
		s.conn = conn
	}
	// notSent drops the connection after a failure before the message's
	// end reached the server.
	notSent := func(err error) error {
		s.drop()
		return fmt.Errorf("money: smtp: %w: %w", ErrNotSent, err)
	}
	if err := s.conn.UpdateDeadline(s.timeout); err != nil {
		return notSent(err)
	}
	from, err := msg.GetSender(false)
	if err != nil {
		return fmt.Errorf("money: smtp sender %q: %w", s.from, err)
	}
	to, err := msg.GetRecipients()
	if err != nil || len(to) != 1 {
		return &BadAddressError{fmt.Errorf("%q: %w", m.To, err)}
	}
	if err := s.conn.Mail(from); err != nil {
		return notSent(err)
	}
	if err := s.conn.Rcpt(to[0]); err != nil {
		var te *textproto.Error
		if errors.As(err, &te) && te.Code >= 500 {
			// Refused for good; the transaction is reset for the next.
			if rerr := s.conn.Reset(); rerr != nil {
				s.drop()
			}
			return &BadAddressError{err}
		}
		return notSent(err)
	}
	w, err := s.conn.Data()
	if err != nil {
		return notSent(err)
	}
	if _, err := msg.WriteTo(w); err != nil {
		return notSent(err)
	}
	if err := w.Close(); err != nil {
		var te *textproto.Error
		if errors.As(err, &te) {
			// The server answered the message's end with a refusal.
			return notSent(err)
		}
		// Whether the server has it is unknown.
		s.drop()
		return fmt.Errorf("money: smtp: %w", err)
	}
	return nil
}

// drop closes a connection that failed, without the QUIT exchange.
func (s *SMTP) drop() {
	if s.conn != nil {
		s.conn.Close()
		s.conn = nil
	}
}

// Close ends the connection.
func (s *SMTP) Close() error {
	if s.conn == nil {
		return nil
	}
	err := s.c.CloseWithSMTPClient(s.conn)
	s.conn.Close()
	s.conn = nil
	return err
}
