package httpapi

import (
	"io"
	"net/http"

	"github.com/chipdesk/chipdesk/service"
)

// photoRoutes is the photograph upload: the server names the file (an
// id of 128 random bits, service.ValidPhotoID) and keeps it in the
// photos folder, so that an animal's photo reference is never a path or
// a URL a client chose (OWASP ASVS 12.3.1, 12.5.2).
func (s *Server) photoRoutes() []route {
	return []route{{"POST /api/v1/animals/{id}/photo", counter, s.handleUploadPhoto}}
}

// handleUploadPhoto stores the request body, a JPEG, PNG, WebP or GIF
// image (its type read from its first bytes, not from the client's
// Content-Type), as the animal's photograph.
func (s *Server) handleUploadPhoto(w http.ResponseWriter, r *http.Request) {
	if s.photos == nil {
		s.writeError(w, r, service.Errorf(service.ENOTFOUND, "This server keeps no photographs."))
		return
	}
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if _, err := s.store.FindAnimalByID(r.Context(), id); err != nil {
		s.writeError(w, r, err)
		return
	}
	b, err := io.ReadAll(r.Body)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	name, err := service.SavePhoto(s.photos, b)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, ch := s.changing(r, "animal.photo", "animal", id, name)
	a, err := s.store.UpdateAnimal(ctx, id, service.AnimalUpdate{Photo: &name})
	if err != nil {
		s.photos.Remove(name)
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, id)
	s.writeJSON(w, r, http.StatusCreated, a)
}
