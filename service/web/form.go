package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/chipdesk/chipdesk/service"
)

// Forms that are safe (post/redirect/get): every POST to a page answers
// 303 See Other to a page that a reload does not repeat, or a 4xx error
// page; never 200. What the next page says travels in the session, never
// in the address:
//
//   - h.seeOther(w, r, path, msg) after a change: msg is the next page's
//     green notice (a flash), shown once.
//   - h.formError(w, r, back, err) when the layer refuses the form with
//     a correctable error (EINVALID, ECONFLICT, EAMBIGUOUS): the values
//     typed and the error are kept in the session and the browser goes
//     back to the form's page, which shows the form again filled in,
//     with the error beside the field the service.Error names. Any other
//     error is an error page (4xx, or 500 with the details logged).
//
// Templates read the kept form through the view's (or recordView's)
// Form: {{$.Form.Value "/animals/1/impound" "where_found" ""}} is what
// was typed (or the default), {{$.Form.Error "/animals/1/impound"
// "where_found"}} the message beside that field, {{$.Form.Top ACTION}}
// a message that names no field of the form, {{$.Form.For ACTION}}
// whether the kept form is that one (to open its <details>).

// Form is a form sent and refused: where it was sent, what was typed,
// and the refusal with the field it names. A nil *Form answers every
// question with the default, so templates need no guards.
type Form struct {
	Action  string
	Values  url.Values
	Field   string
	Message string
	// Fields are the names the form had (what was sent), to tell whether
	// Field is one of them.
	fields map[string]bool
}

// For reports whether f is the form sent to action.
func (f *Form) For(action string) bool { return f != nil && f.Action == action }

// Value is what was typed into field name of the form sent to action, or
// def when that form was not sent.
func (f *Form) Value(action, name, def string) string {
	if !f.For(action) || !f.Values.Has(name) {
		return def
	}
	return f.Values.Get(name)
}

// Checked reports whether checkbox name was ticked on the form sent to
// action, or def when that form was not sent.
func (f *Form) Checked(action, name string, def bool) bool {
	if !f.For(action) {
		return def
	}
	return f.Values.Get(name) != ""
}

// Error is the refusal's message when it names field name of the form
// sent to action.
func (f *Form) Error(action, name string) string {
	if !f.For(action) || f.Field != name {
		return ""
	}
	return f.Message
}

// Top is the refusal's message when it names no field the form had: the
// page shows it above the form.
func (f *Form) Top(action string) string {
	if !f.For(action) || (f.Field != "" && f.fields[f.Field]) {
		return ""
	}
	return f.Message
}

// kept is what a session holds for its next page: a notice and a
// refused form. Each is shown once.
type kept struct {
	mu    sync.Mutex
	flash []string
	form  *Form
	// once holds values shown once and only on the page that asks by key
	// (a new token's secret).
	once map[string]string
}

// addFlash keeps msg for the next page.
func (k *kept) addFlash(msg string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.flash = append(k.flash, msg)
}

// take returns and forgets the notices and the refused form.
func (k *kept) take() ([]string, *Form) {
	k.mu.Lock()
	defer k.mu.Unlock()
	fl, f := k.flash, k.form
	k.flash, k.form = nil, nil
	return fl, f
}

// keepForm keeps a refused form for the page it goes back to.
func (k *kept) keepForm(f *Form) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.form = f
}

// keepOnce keeps value under key until takeOnce asks for it.
func (k *kept) keepOnce(key, value string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.once == nil {
		k.once = map[string]string{}
	}
	k.once[key] = value
}

// takeOnce returns and forgets the value kept under key.
func (k *kept) takeOnce(key string) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	v := k.once[key]
	delete(k.once, key)
	return v
}

// shown is what one page request took from its session: it is taken
// on first use, so that a page's fragments and its layout share it and
// requests that render no page (streams, refreshing tables) take nothing.
type shown struct {
	once  sync.Once
	ss    *session
	flash []string
	form  *Form
}

type shownKey struct{}

// withShown gives r the lazily taken notices and form of session ss.
func withShown(r *http.Request, ss *session) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), shownKey{}, &shown{ss: ss}))
}

// taken returns the notices and refused form of r's session, taking them
// from the session the first time it is called for r.
func taken(r *http.Request) *shown {
	s, _ := r.Context().Value(shownKey{}).(*shown)
	if s == nil {
		return &shown{}
	}
	s.once.Do(func() {
		if s.ss != nil {
			s.flash, s.form = s.ss.kept.take()
		}
	})
	return s
}

// formOf is the refused form r's page shows again, nil when none.
func formOf(r *http.Request) *Form { return taken(r).form }

// seeOther answers a POST with 303 See Other to path; msg, when not
// empty, is shown once on that page.
func seeOther(w http.ResponseWriter, r *http.Request, path, msg string) {
	if ss := sess(r); ss != nil && msg != "" {
		ss.kept.addFlash(msg)
	}
	http.Redirect(w, r, path, http.StatusSeeOther)
}

// correctable reports whether a person can mend err by changing the form.
func correctable(err error) bool {
	switch service.ErrorCode(err) {
	case service.EINVALID, service.ECONFLICT, service.EAMBIGUOUS:
		return true
	}
	return false
}

// formError answers a form the layer refused. A correctable refusal
// keeps what was typed with the error and sends the browser back (303)
// to the page at back, which shows the form again; any other error is
// an error page (failErr). The session's CSRF token is never kept.
func (h *Handler) formError(w http.ResponseWriter, r *http.Request, back string, err error) {
	ss := sess(r)
	if ss == nil || !correctable(err) {
		h.failErr(w, r, err)
		return
	}
	_ = r.ParseForm()
	f := &Form{Action: r.URL.Path, Values: url.Values{}, Field: service.ErrorField(err),
		Message: service.ErrorMessage(err), fields: map[string]bool{}}
	// Shown beside its field, a message needs no field code before it
	// ("notice_on: 2026-07-01 is in the future").
	if f.Field != "" {
		if m, ok := strings.CutPrefix(f.Message, f.Field+": "); ok && m != "" {
			f.Message = strings.ToUpper(m[:1]) + m[1:]
		}
	}
	for k, v := range r.PostForm {
		if k == "csrf" || k == "password" {
			continue
		}
		f.Values[k] = v
		f.fields[k] = true
	}
	ss.kept.keepForm(f)
	if back == "" {
		back = r.URL.Path
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
}

// backTo is the page a form came from, as its "back" field names it (a
// path on this site), or def.
func backTo(r *http.Request, def string) string {
	if b := safeNext(strings.TrimSpace(r.PostFormValue("back"))); b != "" {
		return b
	}
	return def
}

// withNothingShown gives r nothing to show: a long-lived request (the
// scan stream) must not take the notices meant for the next page.
func withNothingShown(r *http.Request) *http.Request {
	s := &shown{}
	s.once.Do(func() {})
	return r.WithContext(context.WithValue(r.Context(), shownKey{}, s))
}
