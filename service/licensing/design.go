package licensing

import (
	"context"
	"fmt"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/tags"
)

// Design approval: an administrator approves a year's tag design after
// looking at its preview; the approval is an audit event (action
// "design.approve", entity "design", detail "MPLS/2027"), so who approved
// what and when is kept with every other action. No tag is printed or
// engraved from a design not approved, whichever door asks (the API, a
// page, "chipdesk print", a batch): service/jobs asks DesignApproved
// before it queues any tag.

// Approval actions.
const (
	ActionApprove = "design.approve"
	EntityDesign  = "design"
)

// DesignKey names a design and year in approvals: "MPLS/2027".
func DesignKey(d *tags.Design, year int) string { return fmt.Sprintf("%s/%d", d.Jurisdiction, year) }

// Approvals returns the newest approval of each design key.
func Approvals(ctx context.Context, st service.AuditService) (map[string]*service.AuditEvent, error) {
	ent := EntityDesign
	evs, _, err := st.FindAuditEvents(ctx, service.AuditFilter{Entity: &ent, Limit: 1000})
	if err != nil {
		return nil, err
	}
	approved := map[string]*service.AuditEvent{}
	for _, e := range evs { // newest first: keep the newest approval
		if e.Action == ActionApprove && approved[e.Detail] == nil {
			approved[e.Detail] = e
		}
	}
	return approved, nil
}

// DesignApproved returns nil when design d was approved for year, else
// an ECONFLICT error a clerk understands.
func DesignApproved(ctx context.Context, st service.AuditService, d *tags.Design, year int) error {
	approved, err := Approvals(ctx, st)
	if err != nil {
		return err
	}
	if approved[DesignKey(d, year)] == nil {
		return service.Conflictf("The %s %d tag design is not approved yet; an administrator approves it on the admin page before any tag is printed or engraved.", d.Name, year)
	}
	return nil
}

// ApproveDesign records the approval of design d for year by ev's actor
// (ev carries who, when and where; its action, entity and detail are
// set here). A design that breaks a rule (designErr) is refused.
func ApproveDesign(ctx context.Context, st service.AuditService, d *tags.Design, year int, designErr error, ev *service.AuditEvent) error {
	if designErr != nil {
		return service.Errorf(service.EINVALID, "This design breaks a rule and cannot be approved: %v", designErr)
	}
	ev.Action, ev.Entity, ev.EntityID, ev.Detail = ActionApprove, EntityDesign, 0, DesignKey(d, year)
	return st.CreateAuditEvent(ctx, ev)
}

// ApproveAll approves, as actor at at, every valid design of ds for each
// of years: what an administrator does on the admin page, for a
// demonstration's data and for tests.
func ApproveAll(ctx context.Context, st service.AuditService, ds *tags.Designs, actor string, at time.Time, years ...int) error {
	for _, d := range ds.All() {
		if ds.Err(d) != nil {
			continue
		}
		for _, y := range years {
			if d.Year != 0 && d.Year != y {
				continue
			}
			ev := &service.AuditEvent{At: at.UTC(), Actor: actor, Role: service.RoleAdmin}
			if err := ApproveDesign(ctx, st, d, y, nil, ev); err != nil {
				return err
			}
		}
	}
	return nil
}
