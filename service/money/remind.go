package money

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/chipdesk/chipdesk/service"
)

// Mail is one message to send.
type Mail struct {
	// MessageID is the Message-ID header, the same for a reminder
	// whatever run sends it.
	MessageID string
	To        string
	Subject   string
	Body      string
}

// Mailer sends mail. SMTP is the one chipdesk uses.
type Mailer interface {
	Send(ctx context.Context, m *Mail) error
}

// RemindOpts is one reminder run.
type RemindOpts struct {
	// Before and From bound the expiry dates (From zero: any); Cycle
	// names the run's window, so that runs with the same window share
	// one outbox and send each owner one reminder ("" means Before).
	Before, From service.Date
	Cycle        string
	// Mailer sends the e-mails; nil (and no Mailers) leaves them queued.
	Mailer Mailer
	// Mailers send too, each on a connection of its own, at the same
	// time as Mailer and one another: a server that answers one
	// connection at a time is kept busy while the others wait.
	Mailers []Mailer
	// RenewURL is the counter's renewal page; the licence id is added
	// ("https://counter.example.org/renew?licence=").
	RenewURL string
	// Letters receives the printable letters of the owners without an
	// e-mail address (an HTML page per owner); nil leaves them queued.
	Letters io.Writer
	// SaveLetters, when set, makes what Letters received durable (the
	// command syncs its file and renames it into place); it runs before
	// the letters are recorded sent, and its failure gives them back.
	SaveLetters func() error
	// City signs the message ("City of Minneapolis").
	City string
	// Permits reminds the holders of permits expiring in the window
	// too (a kennel licence's renewal application is due by December 1,
	// Chanhassen 5-18(c)), through the same outbox, in a cycle of their
	// own: an owner with a licence and a permit expiring gets one
	// reminder of each.
	Permits bool
	// Batch is how many e-mails one commit claims for one connection
	// (default 1). A run killed outright (no chance to record what it
	// sent) leaves that many per connection in doubt at most: 1 is the
	// strict setting, more is faster.
	Batch int
}

// RemindResult says what a run did.
type RemindResult struct {
	Queued  int `json:"queued"`
	Sent    int `json:"sent"`
	Letters int `json:"letters"`
	Failed  int `json:"failed"`
	// InDoubt counts reminders a run before this one claimed and did not
	// record as sent (it stopped mid-message): they are not sent again,
	// and a person checks them.
	InDoubt int `json:"in_doubt"`
	// PermitsQueued counts the permit reminders among Queued;
	// NoHolder the permits expiring whose holder is not on file as an
	// owner (nobody to write to: the clerk writes them).
	PermitsQueued int `json:"permits_queued"`
	NoHolder      int `json:"no_holder"`
}

// Remind sends each owner with a licence expiring in the window one
// reminder: an e-mail to those with an address, a letter to the rest.
// The outbox makes it once: each message is claimed in the database
// before it is sent and recorded sent in the commit that claims the
// next, so a second run, or a run after a crash, sends none twice. A
// run that fails stops and gives back what it did not try; a run
// killed outright leaves what it had claimed (Batch) in doubt.
func (s *Service) Remind(ctx context.Context, o *RemindOpts) (*RemindResult, error) {
	if o.Before.IsZero() {
		return nil, service.Errorf(service.EINVALID, "The window's end (expiring before) is required.")
	}
	cycle := o.Cycle
	if cycle == "" {
		cycle = "before " + o.Before.String()
		if !o.From.IsZero() {
			cycle = o.From.String() + " " + cycle
		}
	}
	res := &RemindResult{}
	var err error
	if res.Queued, err = s.store.QueueReminders(ctx, cycle, o.From, o.Before); err != nil {
		return nil, err
	}
	doubt, err := s.store.FindReminders(ctx, cycle, service.ReminderSending)
	if err != nil {
		return nil, err
	}
	res.InDoubt = len(doubt)
	cycles := []string{cycle}
	if o.Permits {
		pc := "permits " + cycle
		if res.PermitsQueued, res.NoHolder, err = s.queuePermits(ctx, pc, o.From, o.Before); err != nil {
			return nil, err
		}
		res.Queued += res.PermitsQueued
		doubt, err := s.store.FindReminders(ctx, pc, service.ReminderSending)
		if err != nil {
			return nil, err
		}
		res.InDoubt += len(doubt)
		cycles = append(cycles, pc)
	}
	for _, c := range cycles {
		if o.Mailer != nil || len(o.Mailers) > 0 {
			if err := s.sendMail(ctx, c, o, res); err != nil {
				return res, err
			}
		}
	}
	if o.Letters != nil {
		if err := s.printLetters(ctx, cycles, o, res); err != nil {
			return res, err
		}
	}
	return res, nil
}

func (s *Service) sendMail(ctx context.Context, cycle string, o *RemindOpts, res *RemindResult) error {
	mailers := o.Mailers
	if o.Mailer != nil {
		mailers = append([]Mailer{o.Mailer}, mailers...)
	}
	var (
		mu    sync.Mutex
		first error
		stop  atomic.Bool
		wg    sync.WaitGroup
	)
	for _, m := range mailers {
		wg.Go(func() {
			var r RemindResult
			err := s.sendWith(ctx, cycle, o, m, &r, &stop)
			mu.Lock()
			defer mu.Unlock()
			res.Sent += r.Sent
			res.Failed += r.Failed
			res.InDoubt += r.InDoubt
			if err != nil && first == nil {
				first = err
				stop.Store(true)
			}
		})
	}
	wg.Wait()
	return first
}

// sendWith sends claimed reminders through m until none is pending or
// stop is set (another connection failed): each batch claimed in one
// commit, and recorded sent in the commit that claims the next.
func (s *Service) sendWith(ctx context.Context, cycle string, o *RemindOpts, m Mailer, res *RemindResult, stop *atomic.Bool) error {
	batch := max(o.Batch, 1)
	var sent []int64
	// giveBack records what was sent and returns the reminders back to
	// the outbox, certainly not sent.
	giveBack := func(back []*service.Reminder) error {
		ids := make([]int64, len(back))
		for k, b := range back {
			ids[k] = b.ID
		}
		wctx := context.WithoutCancel(ctx)
		if err := s.store.FinishReminders(wctx, sent, service.ReminderSent, ""); err != nil {
			return err
		}
		res.Sent += len(sent)
		sent = nil
		return s.store.FinishReminders(wctx, ids, service.ReminderPending, "")
	}
	for {
		n := batch
		if stop.Load() || ctx.Err() != nil {
			n = 0 // record what was sent, claim nothing
		}
		rs, err := s.store.ClaimReminders(context.WithoutCancel(ctx), cycle, service.ChannelEmail, n, sent)
		if err != nil {
			return err
		}
		res.Sent += len(sent)
		sent = sent[:0]
		if len(rs) == 0 {
			return ctx.Err()
		}
		for i, r := range rs {
			if stop.Load() || ctx.Err() != nil {
				if err := giveBack(rs[i:]); err != nil {
					return err
				}
				return ctx.Err()
			}
			err := m.Send(ctx, reminderMail(r, o))
			if err == nil {
				sent = append(sent, r.ID)
				continue
			}
			var bad *BadAddressError
			if errors.As(err, &bad) {
				// The server refused this address: this one failed, the
				// run goes on.
				res.Failed++
				if err := s.store.FinishReminders(context.WithoutCancel(ctx), []int64{r.ID}, service.ReminderFailed, err.Error()); err != nil {
					return err
				}
				continue
			}
			// The run stops. What was sent is recorded; the claimed
			// reminders not tried go back to the outbox, and so does this
			// one when it certainly did not reach the server. Otherwise
			// whether the server has it is unknown: it stays claimed (in
			// doubt) and is not sent again.
			back := rs[i+1:]
			if errors.Is(err, ErrNotSent) {
				back = rs[i:]
			} else {
				res.InDoubt++
			}
			if ferr := giveBack(back); ferr != nil {
				return ferr
			}
			return fmt.Errorf("money: reminder %d to %s: %w", r.ID, r.Email, err)
		}
	}
}

// ErrNotSent marks a Mailer's error after which the message certainly
// did not reach the server (no connection, TLS refused, a command
// before the message's end refused).
var ErrNotSent = errors.New("not sent")

// BadAddressError is a recipient the mail server refused for good.
type BadAddressError struct{ Err error }

func (e *BadAddressError) Error() string { return "recipient refused: " + e.Err.Error() }
func (e *BadAddressError) Unwrap() error { return e.Err }

// reminderMail is the e-mail of reminder r.
func reminderMail(r *service.Reminder, o *RemindOpts) *Mail {
	t := textOf(r, o)
	var b strings.Builder
	fmt.Fprintf(&b, "Dear %s,\n\n", r.Name)
	fmt.Fprintf(&b, "%s\n\n", t.Intro)
	for _, t := range strings.Split(r.Tags, "\n") {
		fmt.Fprintf(&b, "  %s\n", t)
	}
	fmt.Fprintf(&b, "\n%s\n", t.Renew)
	if o.City != "" {
		fmt.Fprintf(&b, "\n%s\n", o.City)
	}
	return &Mail{
		MessageID: fmt.Sprintf("reminder-%d-%d@chipdesk", r.ID, r.OwnerID),
		To:        r.Email,
		Subject:   t.Subject,
		Body:      b.String(),
	}
}

// reminderText is what a reminder says around its list of licences or
// permits.
type reminderText struct {
	Subject, Intro, Renew string
}

func textOf(r *service.Reminder, o *RemindOpts) reminderText {
	if r.Subject == service.SubjectPermit {
		return reminderText{
			Subject: "Your animal permit is due for renewal by " + r.ExpiresOn.String(),
			Intro:   fmt.Sprintf("Your permit is due for renewal by %s. Permits:", r.ExpiresOn),
			Renew:   "Apply at the counter by then.",
		}
	}
	t := reminderText{
		Subject: "Your animal licence expires on " + r.ExpiresOn.String(),
		Intro:   fmt.Sprintf("The licence of your animal expires on %s. Licence tags:", r.ExpiresOn),
		Renew:   "Renew at the counter.",
	}
	if o.RenewURL != "" {
		t.Renew = fmt.Sprintf("Renew at the counter, or here: %s%d", o.RenewURL, r.LicenceID)
	}
	return t
}

func (s *Service) printLetters(ctx context.Context, cycles []string, o *RemindOpts, res *RemindResult) error {
	var all []*service.Reminder
	for _, cycle := range cycles {
		for {
			rs, err := s.store.ClaimReminders(ctx, cycle, service.ChannelLetter, 500, nil)
			if err != nil {
				return err
			}
			if len(rs) == 0 {
				break
			}
			all = append(all, rs...)
		}
	}
	if len(all) == 0 {
		return nil
	}
	ids := make([]int64, len(all))
	for i, r := range all {
		ids[i] = r.ID
	}
	err := writeLetters(o.Letters, all, o)
	if err == nil && o.SaveLetters != nil {
		err = o.SaveLetters()
	}
	if err != nil {
		// Nothing printed: give them back for the next run.
		s.store.FinishReminders(context.WithoutCancel(ctx), ids, service.ReminderPending, "")
		return err
	}
	// Saved before they are recorded: a crash between leaves them
	// claimed (in doubt), never printed twice.
	res.Letters = len(all)
	return s.store.FinishReminders(context.WithoutCancel(ctx), ids, service.ReminderSent, "")
}

// letterPage is one owner's letter.
type letterPage struct {
	R       *service.Reminder
	Address []string
	Tags    []string
	Text    reminderText
}

var letterTmpl = template.Must(template.New("letters").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Licence renewal letters</title>
<style>
body { font: 12pt/1.4 Georgia, serif; margin: 0; }
.letter { padding: 2.5cm 2cm; }
.address { margin: 1cm 0 1.5cm; white-space: pre-line; }
@media print {
  .letter { page-break-after: always; break-after: page; }
  .letter:last-child { page-break-after: auto; break-after: auto; }
}
@page { size: letter; margin: 0; }
</style></head><body>
{{range .Pages}}<section class="letter">
<p>{{$.City}}</p>
<div class="address">{{.R.Name}}{{range .Address}}
{{.}}{{end}}</div>
<p>Dear {{.R.Name}},</p>
<p>{{.Text.Intro}}</p>
<ul>{{range .Tags}}<li>{{.}}</li>{{end}}</ul>
<p>{{.Text.Renew}}</p>
</section>
{{end}}</body></html>
`))

func writeLetters(w io.Writer, rs []*service.Reminder, o *RemindOpts) error {
	var pages []letterPage
	for _, r := range rs {
		p := letterPage{R: r, Tags: strings.Split(r.Tags, "\n")}
		for _, l := range strings.Split(r.Address, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				p.Address = append(p.Address, l)
			}
		}
		p.Text = textOf(r, o)
		pages = append(pages, p)
	}
	return letterTmpl.Execute(w, map[string]any{"Pages": pages, "City": o.City})
}
