package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/licensing"
	"github.com/chipdesk/chipdesk/tags"
)

// Design approval is the licensing layer's (licensing.DesignApproved):
// the admin page records it and shows it.

type designRow struct {
	D          *tags.Design
	Key        string // "MPLS/2027"
	Year       int
	Err        string
	ApprovedBy string
	ApprovedAt time.Time
}

type adminData struct {
	Designs []designRow
	Tokens  []*service.Token
	Roles   []service.Role
	Secret  string // a token just created, shown once
	NewName string
	Devices []Device
	CSRF    string
}

func designKey(d *tags.Design, year int) string { return licensing.DesignKey(d, year) }

// designApproved returns nil when the design of licence l's tag was
// approved, else an error saying so (ECONFLICT when it awaits approval).
func (h *Handler) designApproved(ctx context.Context, l *service.Licence) error {
	return h.o.Jobs.Approved(ctx, l.Jurisdiction, l.Year)
}

func (h *Handler) adminData(r *http.Request) (*adminData, error) {
	ctx := r.Context()
	d := &adminData{CSRF: sess(r).csrf,
		Roles: []service.Role{service.RoleIntake, service.RoleOfficer, service.RoleClinic, service.RolePublic, service.RoleAdmin}}
	approved, err := licensing.Approvals(ctx, h.o.Store)
	if err != nil {
		return nil, err
	}
	year := h.o.Now().Year()
	for _, ds := range h.o.Jobs.Designs.All() {
		y := ds.Year
		if y == 0 {
			y = year
		}
		row := designRow{D: ds, Key: designKey(ds, y), Year: y}
		if err := h.o.Jobs.Designs.Err(ds); err != nil {
			row.Err = err.Error()
		}
		if e := approved[row.Key]; e != nil {
			row.ApprovedBy, row.ApprovedAt = e.Actor, e.At
		}
		d.Designs = append(d.Designs, row)
	}
	if d.Tokens, err = h.o.Store.FindTokens(ctx); err != nil {
		return nil, err
	}
	d.Devices = h.devices(ctx)
	return d, nil
}

func (h *Handler) devices(ctx context.Context) []Device {
	if h.o.Devices == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	return h.o.Devices.Devices(ctx)
}

// handleAdmin lists the tag designs, the tokens and the devices.
func (h *Handler) handleAdmin(w http.ResponseWriter, r *http.Request) {
	d, err := h.adminData(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	d.Secret, d.NewName = sess(r).kept.takeOnce("token-secret"), sess(r).kept.takeOnce("token-name")
	h.render(w, r, http.StatusOK, "admin", "Admin", &view{Data: d})
}

// handleDevices is the devices table alone; the admin page refreshes it.
func (h *Handler) handleDevices(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := h.pages["fragments"].ExecuteTemplate(w, "devices", h.devices(r.Context())); err != nil {
		h.o.Logger.Error("web: devices", "err", err)
	}
}

func (h *Handler) designOf(r *http.Request) (*tags.Design, int, error) {
	year, err := strconv.Atoi(r.PathValue("year"))
	if err != nil {
		return nil, 0, service.Errorf(service.ENOTFOUND, "No such design.")
	}
	d, err := h.o.Jobs.Designs.Design(strings.ToUpper(r.PathValue("j")), year)
	if err != nil {
		return nil, 0, service.Errorf(service.ENOTFOUND, "No design for %s %d.", r.PathValue("j"), year)
	}
	return d, year, nil
}

// handleDesignPreview draws a design with a sample register number.
func (h *Handler) handleDesignPreview(w http.ResponseWriter, r *http.Request) {
	d, year, err := h.designOf(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	tag, err := d.Issue(h.o.Jobs.Keys, year, min(123456, d.MaxNumber()), "")
	if err != nil {
		h.failErr(w, r, service.Errorf(service.EINVALID, "The design cannot make a tag: %v", err))
		return
	}
	h.writeSVG(w, r, tag)
}

// handleApproveDesign records the approval of a valid design.
func (h *Handler) handleApproveDesign(w http.ResponseWriter, r *http.Request) {
	d, year, err := h.designOf(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	ss := sess(r)
	ev := &service.AuditEvent{At: h.o.Now().UTC(), Actor: ss.name, Role: ss.role, Site: ss.site}
	if err := licensing.ApproveDesign(r.Context(), h.o.Store, d, year, h.o.Jobs.Designs.Err(d), ev); err != nil {
		h.failErr(w, r, err)
		return
	}
	seeOther(w, r, "/admin#designs", fmt.Sprintf("Design %s approved.", designKey(d, year)))
}

// handleCreateToken makes a token (a person's or a device's login); the
// secret is shown once.
func (h *Handler) handleCreateToken(w http.ResponseWriter, r *http.Request) {
	t := &service.Token{Name: strings.TrimSpace(r.PostFormValue("name")), Role: service.Role(r.PostFormValue("role")),
		Site: strings.TrimSpace(r.PostFormValue("site"))}
	if t.Name == "" || !t.Role.Valid() {
		h.formError(w, r, "/admin#tokens", service.Invalidf("name", "A token needs a name and a role."))
		return
	}
	if days, _ := strconv.Atoi(r.PostFormValue("days")); days > 0 {
		t.ExpiresAt = h.o.Now().UTC().AddDate(0, 0, days)
	}
	ctx, ch := h.changing(r, "token.create", "token", 0, fmt.Sprintf("%s (%s)", t.Name, t.Role))
	secret, err := h.o.Store.CreateToken(ctx, t)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.committed(r, ch, t.ID)
	// The secret is shown once, on the page the browser is sent to, and
	// never travels in an address.
	sess(r).kept.keepOnce("token-secret", secret)
	sess(r).kept.keepOnce("token-name", t.Name)
	seeOther(w, r, "/admin#tokens", "Token created. Copy the secret now: it is not shown again.")
}

// handleRevokeToken revokes a token and ends its sessions.
func (h *Handler) handleRevokeToken(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	if id == sess(r).tokenID {
		h.failErr(w, r, service.Errorf(service.ECONFLICT, "You cannot revoke the token you are signed in with."))
		return
	}
	ctx, ch := h.changing(r, "token.revoke", "token", id, "")
	if err := h.o.Store.RevokeToken(ctx, id); err != nil {
		h.failErr(w, r, err)
		return
	}
	h.sessions.endToken(id)
	if h.o.Access != nil {
		h.o.Access.RevokedToken(id) // its API streams end too
	}
	h.committed(r, ch, id)
	seeOther(w, r, "/admin#tokens", "Token revoked.")
}
