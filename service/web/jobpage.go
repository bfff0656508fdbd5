package web

import (
	"bytes"
	"fmt"
	"image/png"
	"net/http"

	"github.com/chipdesk/chipdesk/service"
)

// labelDpmm and labelWidthMM are the label the job page draws: a
// 203 dpi (8 dots/mm) Zebra on 60 mm stock, the demo's printer.
const (
	labelDpmm    = 8
	labelWidthMM = 60
)

type jobData struct {
	J      *service.Job
	L      *service.Licence
	Animal *service.Animal
	CSRF   string
}

// handleJob is a print or engrave job's page: its state, device and
// error, and the label it makes, drawn as the printer lays it out (the
// tag's artwork rasterised as the ZPL label is: outline, text, 2D code
// and the Code 128 under it).
func (h *Handler) handleJob(w http.ResponseWriter, r *http.Request) {
	d, err := h.jobData(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "job", fmt.Sprintf("Job %d · tag %d of %d", d.J.ID, d.L.TagNumber, d.L.Year), &view{Data: d, Active: "/clinic"})
}

func (h *Handler) jobData(r *http.Request) (*jobData, error) {
	id, err := pathID(r)
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	j, err := h.o.Store.FindJobByID(ctx, id)
	if err != nil {
		return nil, err
	}
	l, err := h.o.Store.FindLicenceByID(ctx, j.LicenceID)
	if err != nil {
		return nil, err
	}
	a, err := h.o.Store.FindAnimalByID(ctx, l.AnimalID)
	if err != nil {
		return nil, err
	}
	return &jobData{J: j, L: l, Animal: a, CSRF: sess(r).csrf}, nil
}

// handleJobLabel is the label of a job as a PNG, 1 bit, black = ink.
func (h *Handler) handleJobLabel(w http.ResponseWriter, r *http.Request) {
	d, err := h.jobData(r)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	tag, err := h.o.Jobs.LicenceTag(r.Context(), d.L)
	if err != nil {
		h.failErr(w, r, service.Errorf(service.ENOTFOUND, "No tag design for this licence."))
		return
	}
	img, err := h.o.Renderer.Artwork(tag).Raster(labelDpmm, labelWidthMM)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		h.failErr(w, r, err)
		return
	}
	if h.devKeys() {
		w.Header().Set("X-Chipdesk-Keys", "development")
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "private, max-age=300")
	w.Write(b.Bytes())
}

// favicon is the site's icon: a tag with its ring hole, in the header's
// colours.
const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#102a43"/><circle cx="16" cy="17" r="10" fill="#ffbf47"/><circle cx="16" cy="10" r="2.2" fill="#102a43"/><text x="16" y="23.5" font-family="sans-serif" font-size="9" font-weight="700" text-anchor="middle" fill="#102a43">CD</text></svg>`

// handleFavicon answers /favicon.ico (browsers ask for it whatever the
// page says) with the SVG icon.
func (h *Handler) handleFavicon(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Write([]byte(favicon))
}
