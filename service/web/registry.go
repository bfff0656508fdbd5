package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/service"
)

// The register: owners and animals added and changed at the desk, an
// unknown chip registered to a new animal (the usual stray at intake,
// taken into custody in the same step), photographs. Chip text goes
// through reader/chipid (Lookup.ChipRecord), every record through its
// own Validate, custody through custody.Impound; the store writes each
// change with its audit event (changing).

func (h *Handler) registryRoutes() {
	m := h.mux
	m.HandleFunc("GET /animals/new", h.page(deskRoles, h.handleAnimalForm))
	m.HandleFunc("POST /animals", h.page(deskRoles, h.handleRegister))
	m.HandleFunc("GET /animals/{id}/edit", h.page(deskRoles, h.handleAnimalEdit))
	m.HandleFunc("POST /animals/{id}", h.page(deskRoles, h.handleAnimalUpdate))
	m.HandleFunc("GET /owners/new", h.page(deskRoles, h.handleOwnerForm))
	m.HandleFunc("POST /owners", h.page(deskRoles, h.handleOwnerCreate))
	m.HandleFunc("GET /owners/{id}", h.page(staffRoles, h.handleOwner))
	m.HandleFunc("POST /owners/{id}", h.page(deskRoles, h.handleOwnerUpdate))
}

// animalForm is the data of the animal form, new or edit.
type animalForm struct {
	Action string
	CSRF   string
	Form   *Form
	// Animal is the animal edited (nil for a new one), Owner its owner
	// or the one it is registered to.
	Animal *service.Animal
	Owner  *service.Owner
	Chips  []*service.Chip
	// Chip is the chip text the new animal is registered with (from the
	// scan that found it unknown).
	Chip          string
	Species       []service.Species
	Jurisdictions []jurisdictionOption
	Default       string
	CanImpound    bool
	Photos        bool
	Today         service.Date
	// Def are the fields' values before anything is typed.
	Def map[string]string
}

// animalDefaults are the form values of animal a (nil: a new dog) and
// its owner.
func animalDefaults(a *service.Animal, o *service.Owner) map[string]string {
	d := map[string]string{"species": string(service.Dog), "owner_state": "MN"}
	if a != nil {
		d["name"], d["species"], d["breed"], d["colour"], d["sex"] = a.Name, string(a.Species), a.Breed, a.Colour, string(a.Sex)
		d["description"] = a.Description
		if !a.BirthDate.IsZero() {
			d["birth_date"] = a.BirthDate.String()
		}
		if a.Altered {
			d["altered"] = "on"
		}
	}
	if o != nil {
		d["owner_id"] = strconv.FormatInt(o.ID, 10)
	}
	return d
}

// ownerDefaults are the form values of owner o (nil: a new one).
func ownerDefaults(o *service.Owner) map[string]string {
	if o == nil {
		return map[string]string{"state": "MN"}
	}
	return map[string]string{"name": o.Name, "address": o.Address, "city": o.City, "state": o.State,
		"postcode": o.Postcode, "phone": o.Phone, "email": o.Email}
}

type jurisdictionOption struct{ ID, Display string }

func (h *Handler) newAnimalForm(r *http.Request, action string) *animalForm {
	ss := sess(r)
	d := &animalForm{Action: action, CSRF: ss.csrf, Form: formOf(r), Default: h.o.Jurisdiction,
		Species:    []service.Species{service.Dog, service.Cat, service.Ferret, service.Other},
		CanImpound: allowed(ss.role, intakeRoles), Photos: h.o.PhotoRoot != nil, Today: h.today("")}
	for _, j := range h.o.Lookup.Jurisdictions() {
		d.Jurisdictions = append(d.Jurisdictions, jurisdictionOption{j.ID, j.Display})
	}
	return d
}

// handleAnimalForm is the form for a new animal: ?chip= registers that
// chip (the unknown stray the reader just found), ?owner= gives it that
// owner.
func (h *Handler) handleAnimalForm(w http.ResponseWriter, r *http.Request) {
	d := h.newAnimalForm(r, "/animals")
	d.Chip = strings.TrimSpace(r.URL.Query().Get("chip"))
	if o := r.URL.Query().Get("owner"); o != "" {
		id, err := strconv.ParseInt(o, 10, 64)
		if err == nil {
			d.Owner, err = h.o.Store.FindOwnerByID(r.Context(), id)
		}
		if err != nil {
			h.failErr(w, r, service.Errorf(service.ENOTFOUND, "No such owner."))
			return
		}
	}
	d.Def = animalDefaults(nil, d.Owner)
	h.render(w, r, http.StatusOK, "animal_form", "Register an animal", &view{Data: d})
}

// withField is err naming field prefix+its field (the owner's "name" on a
// form where it is "owner_name"), or field when it names none.
func withField(err error, prefix, field string) error {
	var e *service.Error
	if !errors.As(err, &e) {
		return err
	}
	c := *e
	if c.Field != "" {
		c.Field = prefix + c.Field
	} else if field != "" {
		c.Field = field
	}
	return &c
}

// animalFromForm reads the animal fields of a form into a.
func animalFromForm(r *http.Request, a *service.Animal) error {
	a.Name = strings.TrimSpace(r.PostFormValue("name"))
	a.Species = service.Species(r.PostFormValue("species"))
	a.Breed = strings.TrimSpace(r.PostFormValue("breed"))
	a.Colour = strings.TrimSpace(r.PostFormValue("colour"))
	a.Sex = service.Sex(r.PostFormValue("sex"))
	a.Altered = r.PostFormValue("altered") == "on"
	a.Description = strings.TrimSpace(r.PostFormValue("description"))
	a.BirthDate = 0
	if strings.TrimSpace(r.PostFormValue("birth_date")) != "" {
		d, err := formDate(r, "birth_date")
		if err != nil {
			return err
		}
		a.BirthDate = d
	}
	return a.Validate()
}

// ownerFromForm reads the owner_ fields of a form; nil when no owner
// name was typed (an animal whose owner is not known).
func ownerFromForm(r *http.Request, prefix string) (*service.Owner, error) {
	v := func(k string) string { return strings.TrimSpace(r.PostFormValue(prefix + k)) }
	o := &service.Owner{Name: v("name"), Address: v("address"), City: v("city"), State: v("state"),
		Postcode: v("postcode"), Phone: v("phone"), Email: v("email")}
	if prefix != "" && *o == (service.Owner{}) {
		return nil, nil
	}
	if err := o.Validate(); err != nil {
		return nil, withField(err, prefix, "")
	}
	return o, nil
}

// formOwner is the owner the form's owner_id names, nil when it names
// none; an id not on file is refused beside the field.
func (h *Handler) formOwner(ctx context.Context, r *http.Request) (*service.Owner, error) {
	o := strings.TrimSpace(r.PostFormValue("owner_id"))
	if o == "" {
		return nil, nil
	}
	id, err := strconv.ParseInt(o, 10, 64)
	var owner *service.Owner
	if err == nil {
		owner, err = h.o.Store.FindOwnerByID(ctx, id)
	}
	if err != nil {
		return nil, service.Invalidf("owner_id", "No owner %s is on file.", truncateText(o, 20))
	}
	return owner, nil
}

// truncateText is s cut to n runes, for a message.
func truncateText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// photoFromForm keeps the photograph of field "photo", when one was
// sent, and returns its id ("" for none).
func (h *Handler) photoFromForm(r *http.Request) (string, error) {
	f, _, err := r.FormFile("photo")
	if errors.Is(err, http.ErrMissingFile) || errors.Is(err, http.ErrNotMultipart) {
		return "", nil
	}
	if err != nil {
		return "", service.Invalidf("photo", "The photograph could not be read.")
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, service.MaxPhotoBytes+1))
	if err != nil {
		return "", service.Invalidf("photo", "The photograph could not be read.")
	}
	if len(b) == 0 {
		return "", nil
	}
	if h.o.PhotoRoot == nil {
		return "", service.Invalidf("photo", "This server keeps no photographs.")
	}
	return service.SavePhoto(h.o.PhotoRoot, b)
}

// chipFromForm parses the chip text of field name and checks that no
// animal has it: nil for an empty field.
func (h *Handler) chipFromForm(ctx context.Context, r *http.Request, name string) (*service.Chip, error) {
	text := strings.TrimSpace(r.PostFormValue(name))
	if text == "" {
		return nil, nil
	}
	c, err := h.o.Lookup.ChipRecord(text)
	if err != nil {
		return nil, withField(err, "", name)
	}
	rec, err := h.o.Store.FindRecordByChip(ctx, c.Code)
	switch {
	case err == nil:
		return nil, service.FieldErrorf(service.ECONFLICT, name, "Chip %s is registered already, to %s (animal %d).", c.Code, animalName(&rec.Animal), rec.Animal.ID)
	case service.ErrorCode(err) != service.ENOTFOUND:
		return nil, err
	}
	return c, nil
}

// handleRegister adds an animal, with its chip, a new owner or an
// existing one, its photograph, and, for a stray at intake, takes it
// into custody. Every part is checked before anything is written.
func (h *Handler) handleRegister(w http.ResponseWriter, r *http.Request) {
	back := backTo(r, "/animals/new")
	ctx := r.Context()
	fail := func(err error) { h.formError(w, r, back, err) }
	var a service.Animal
	if err := animalFromForm(r, &a); err != nil {
		fail(err)
		return
	}
	owner, err := h.formOwner(ctx, r)
	if err == nil && owner == nil {
		owner, err = ownerFromForm(r, "owner_")
	}
	if err != nil {
		fail(err)
		return
	}
	chip, err := h.chipFromForm(ctx, r, "chip")
	if err != nil {
		fail(err)
		return
	}
	impound := r.PostFormValue("impound") == "on" && allowed(sess(r).role, intakeRoles)
	var jur string
	if impound {
		if jur, err = h.jurisdiction(r.PostFormValue("jurisdiction")); err != nil {
			fail(err)
			return
		}
	}
	photo, err := h.photoFromForm(r)
	if err != nil {
		fail(err)
		return
	}
	a.Photo = photo
	if owner != nil && owner.ID == 0 {
		cctx, ch := h.changing(r, "owner.create", "owner", 0, "web")
		if err := h.o.Store.CreateOwner(cctx, owner); err != nil {
			h.dropPhoto(photo)
			fail(err)
			return
		}
		h.committed(r, ch, owner.ID)
	}
	if owner != nil {
		a.OwnerID = owner.ID
	}
	cctx, ch := h.changing(r, "animal.create", "animal", 0, "web")
	if err := h.o.Store.CreateAnimal(cctx, &a); err != nil {
		h.dropPhoto(photo)
		fail(err)
		return
	}
	h.committed(r, ch, a.ID)
	msg := fmt.Sprintf("%s registered.", animalName(&a))
	if chip != nil {
		chip.AnimalID = a.ID
		cctx, ch := h.changing(r, "chip.add", "animal", a.ID, chip.Code)
		if err := h.o.Store.AddChip(cctx, chip); err != nil {
			// The animal is kept; the page says the chip was not added.
			h.o.Logger.Error("web: chip", "animal", a.ID, "err", err)
			seeOther(w, r, fmt.Sprintf("/animals/%d/edit", a.ID), msg+" The chip was not added: "+service.ErrorMessage(err))
			return
		}
		h.committed(r, ch, a.ID)
	}
	if !impound {
		seeOther(w, r, fmt.Sprintf("/animals/%d", a.ID), msg)
		return
	}
	im := &service.Impoundment{AnimalID: a.ID, Jurisdiction: jur, Site: sess(r).site,
		WhereFound: strings.TrimSpace(r.PostFormValue("where_found"))}
	ictx, ich := h.changing(r, "impoundment.create", "impoundment", 0, fmt.Sprintf("animal %d", a.ID))
	if _, err := h.o.Custody.Impound(ictx, im); err != nil {
		seeOther(w, r, fmt.Sprintf("/animals/%d", a.ID), msg+" Not taken into custody: "+service.ErrorMessage(err))
		return
	}
	h.committed(r, ich, im.ID)
	seeOther(w, r, fmt.Sprintf("/custody/%d", im.ID), msg+" Taken into custody.")
}

// dropPhoto removes a photograph kept for a change that failed.
func (h *Handler) dropPhoto(name string) {
	if name != "" && h.o.PhotoRoot != nil {
		_ = h.o.PhotoRoot.Remove(name)
	}
}

// handleAnimalEdit is the form that changes an animal: its details, its
// owner, a chip added, a new photograph.
func (h *Handler) handleAnimalEdit(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	a, err := h.o.Store.FindAnimalByID(r.Context(), id)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	d := h.newAnimalForm(r, fmt.Sprintf("/animals/%d", id))
	d.Animal, d.CanImpound = a, false
	if a.OwnerID != 0 {
		if d.Owner, err = h.o.Store.FindOwnerByID(r.Context(), a.OwnerID); err != nil && service.ErrorCode(err) != service.ENOTFOUND {
			h.failErr(w, r, err)
			return
		}
	}
	if d.Chips, err = h.o.Store.FindChipsByAnimal(r.Context(), id); err != nil {
		h.failErr(w, r, err)
		return
	}
	d.Def = animalDefaults(a, d.Owner)
	h.render(w, r, http.StatusOK, "animal_form", "Change "+animalName(a), &view{Data: d})
}

// handleAnimalUpdate changes an animal as its form says.
func (h *Handler) handleAnimalUpdate(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	back := fmt.Sprintf("/animals/%d/edit", id)
	ctx := r.Context()
	cur, err := h.o.Store.FindAnimalByID(ctx, id)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	a := *cur
	if err := animalFromForm(r, &a); err != nil {
		h.formError(w, r, back, err)
		return
	}
	u := service.AnimalUpdate{Name: &a.Name, Species: &a.Species, Breed: &a.Breed, Colour: &a.Colour, Sex: &a.Sex,
		Altered: &a.Altered, Description: &a.Description, BirthDate: &a.BirthDate}
	owner, err := h.formOwner(ctx, r)
	if err != nil {
		h.formError(w, r, back, err)
		return
	}
	if owner != nil {
		u.OwnerID = &owner.ID
	}
	chip, err := h.chipFromForm(ctx, r, "chip")
	if err != nil {
		h.formError(w, r, back, err)
		return
	}
	photo, err := h.photoFromForm(r)
	if err != nil {
		h.formError(w, r, back, err)
		return
	}
	if photo != "" {
		u.Photo = &photo
	}
	cctx, ch := h.changing(r, "animal.update", "animal", id, "web")
	if _, err := h.o.Store.UpdateAnimal(cctx, id, u); err != nil {
		h.dropPhoto(photo)
		h.formError(w, r, back, err)
		return
	}
	h.committed(r, ch, id)
	if chip != nil {
		chip.AnimalID = id
		cctx, ch := h.changing(r, "chip.add", "animal", id, chip.Code)
		if err := h.o.Store.AddChip(cctx, chip); err != nil {
			h.formError(w, r, back, withField(err, "", "chip"))
			return
		}
		h.committed(r, ch, id)
	}
	seeOther(w, r, fmt.Sprintf("/animals/%d", id), animalName(&a)+" changed.")
}

// ownerData is the owner page: the owner, the form that changes them
// and their animals.
type ownerData struct {
	Action  string
	CSRF    string
	Form    *Form
	Owner   *service.Owner
	Animals []*service.Animal
	CanEdit bool
	Def     map[string]string
}

func (h *Handler) handleOwnerForm(w http.ResponseWriter, r *http.Request) {
	d := ownerData{Action: "/owners", CSRF: sess(r).csrf, Form: formOf(r), CanEdit: true, Def: ownerDefaults(nil)}
	h.render(w, r, http.StatusOK, "owner", "New owner", &view{Data: d})
}

func (h *Handler) handleOwnerCreate(w http.ResponseWriter, r *http.Request) {
	o, err := ownerFromForm(r, "")
	if err != nil {
		h.formError(w, r, "/owners/new", err)
		return
	}
	ctx, ch := h.changing(r, "owner.create", "owner", 0, "web")
	if err := h.o.Store.CreateOwner(ctx, o); err != nil {
		h.formError(w, r, "/owners/new", err)
		return
	}
	h.committed(r, ch, o.ID)
	seeOther(w, r, fmt.Sprintf("/owners/%d", o.ID), o.Name+" added.")
}

// maxOwnerAnimals bounds the animals an owner page lists.
const maxOwnerAnimals = 200

func (h *Handler) handleOwner(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	o, err := h.o.Store.FindOwnerByID(r.Context(), id)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	as, _, err := h.o.Store.FindAnimals(r.Context(), service.AnimalFilter{OwnerID: &id, Limit: maxOwnerAnimals})
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.audit(r, "page.owner", "owner", id, "")
	d := ownerData{Action: fmt.Sprintf("/owners/%d", id), CSRF: sess(r).csrf, Form: formOf(r), Owner: o, Animals: as,
		CanEdit: allowed(sess(r).role, deskRoles), Def: ownerDefaults(o)}
	h.render(w, r, http.StatusOK, "owner", o.Name, &view{Data: d})
}

func (h *Handler) handleOwnerUpdate(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	back := fmt.Sprintf("/owners/%d", id)
	o, err := ownerFromForm(r, "")
	if err != nil {
		h.formError(w, r, back, err)
		return
	}
	u := service.OwnerUpdate{Name: &o.Name, Address: &o.Address, City: &o.City, State: &o.State,
		Postcode: &o.Postcode, Phone: &o.Phone, Email: &o.Email}
	ctx, ch := h.changing(r, "owner.update", "owner", id, "web")
	if _, err := h.o.Store.UpdateOwner(ctx, id, u); err != nil {
		h.formError(w, r, back, err)
		return
	}
	h.committed(r, ch, id)
	seeOther(w, r, back, o.Name+" changed.")
}
