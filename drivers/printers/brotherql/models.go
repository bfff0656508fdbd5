package brotherql

import (
	"fmt"
	"strings"
)

// VendorID is Brother's USB vendor id.
const VendorID = 0x04F9

// Model is a QL printer model.
type Model struct {
	Name string
	// ProductID is the USB product id (usb.ids).
	ProductID uint16
	// Code is byte 4 of the status reply; 0 when not known.
	Code byte
	// CodeConfirmed is false where Code is believed but not seen in a
	// capture or manual (QL-810W, QL-820NWB).
	CodeConfirmed bool
	// BytesPerLine is the raster line length: 90 (720 pins) or 162
	// (1296 pins).
	BytesPerLine int
	// ExtraOffset is added to the media offset (the wide heads).
	ExtraOffset int
	// ModeSetting: the model takes ESC i a 1 (raster mode).
	ModeSetting bool
	// Compression: the model takes M 2 (PackBits).
	Compression bool
	// Cutter: the model has an automatic cutter (ESC i M, ESC i A).
	Cutter bool
	// Expanded: the model takes ESC i K.
	Expanded bool
	// TwoColour: the model can print red and black (not used here).
	TwoColour bool
	// MinLines, MaxLines bound a page in dot rows.
	MinLines, MaxLines int
}

// Models are the supported printers. Capabilities follow the three
// Brother raster manuals; where brother_ql marks a model without mode
// setting or compression (QL-500/550/560/570/700, QL-800) this does too.
var Models = []Model{
	{Name: "QL-500", ProductID: 0x2015, Code: 0x4F, CodeConfirmed: true, BytesPerLine: 90, MinLines: 295, MaxLines: 11811},
	{Name: "QL-550", ProductID: 0x2016, Code: 0x4F, CodeConfirmed: true, BytesPerLine: 90, Cutter: true, Expanded: true, MinLines: 295, MaxLines: 11811},
	{Name: "QL-560", ProductID: 0x2027, Code: 0x31, CodeConfirmed: true, BytesPerLine: 90, Cutter: true, Expanded: true, MinLines: 295, MaxLines: 11811},
	{Name: "QL-570", ProductID: 0x2028, Code: 0x32, CodeConfirmed: true, BytesPerLine: 90, Cutter: true, Expanded: true, MinLines: 150, MaxLines: 11811},
	{Name: "QL-580N", ProductID: 0x2029, Code: 0x33, CodeConfirmed: true, BytesPerLine: 90, ModeSetting: true, Compression: true, Cutter: true, Expanded: true, MinLines: 150, MaxLines: 11811},
	{Name: "QL-600", ProductID: 0x20c0, Code: 0x47, CodeConfirmed: true, BytesPerLine: 90, ModeSetting: true, Compression: true, Cutter: true, Expanded: true, MinLines: 150, MaxLines: 11811},
	{Name: "QL-650TD", ProductID: 0x201b, Code: 0x51, CodeConfirmed: true, BytesPerLine: 90, ModeSetting: true, Compression: true, Cutter: true, Expanded: true, MinLines: 295, MaxLines: 11811},
	{Name: "QL-700", ProductID: 0x2042, Code: 0x35, CodeConfirmed: true, BytesPerLine: 90, Cutter: true, Expanded: true, MinLines: 150, MaxLines: 11811},
	{Name: "QL-710W", ProductID: 0x2043, Code: 0x36, CodeConfirmed: true, BytesPerLine: 90, ModeSetting: true, Compression: true, Cutter: true, Expanded: true, MinLines: 150, MaxLines: 11811},
	{Name: "QL-720NW", ProductID: 0x2044, Code: 0x37, CodeConfirmed: true, BytesPerLine: 90, ModeSetting: true, Compression: true, Cutter: true, Expanded: true, MinLines: 150, MaxLines: 11811},
	{Name: "QL-800", ProductID: 0x209b, Code: 0x38, CodeConfirmed: true, BytesPerLine: 90, ModeSetting: true, Cutter: true, Expanded: true, TwoColour: true, MinLines: 150, MaxLines: 11811},
	{Name: "QL-810W", ProductID: 0x209c, Code: 0x39, BytesPerLine: 90, ModeSetting: true, Compression: true, Cutter: true, Expanded: true, TwoColour: true, MinLines: 150, MaxLines: 11811},
	{Name: "QL-820NWB", ProductID: 0x209d, Code: 0x41, BytesPerLine: 90, ModeSetting: true, Compression: true, Cutter: true, Expanded: true, TwoColour: true, MinLines: 150, MaxLines: 11811},
	{Name: "QL-1050", ProductID: 0x2020, Code: 0x50, CodeConfirmed: true, BytesPerLine: 162, ExtraOffset: 44, ModeSetting: true, Compression: true, Cutter: true, Expanded: true, MinLines: 295, MaxLines: 35433},
	{Name: "QL-1060N", ProductID: 0x202a, Code: 0x34, CodeConfirmed: true, BytesPerLine: 162, ExtraOffset: 44, ModeSetting: true, Compression: true, Cutter: true, Expanded: true, MinLines: 295, MaxLines: 35433},
}

// LookupModel finds a model by name ("QL-820NWB", case and a missing
// "QL-" ignored).
func LookupModel(name string) (Model, error) {
	n := strings.ToUpper(strings.TrimSpace(name))
	if !strings.HasPrefix(n, "QL-") {
		n = "QL-" + n
	}
	for _, m := range Models {
		if m.Name == n {
			return m, nil
		}
	}
	return Model{}, fmt.Errorf("%w: %q", ErrModel, name)
}

// modelByCode finds the one model whose status code is c.
func modelByCode(c byte) (Model, error) {
	var found []Model
	for _, m := range Models {
		if m.Code == c {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 0:
		return Model{}, fmt.Errorf("%w: model code %#02x", ErrModel, c)
	case 1:
		return found[0], nil
	}
	return Model{}, fmt.Errorf("%w: model code %#02x is %s and %s", ErrModel, c, found[0].Name, found[1].Name)
}

// ModelByProductID finds a model by its USB product id.
func ModelByProductID(pid uint16) (Model, bool) {
	for _, m := range Models {
		if m.ProductID == pid {
			return m, true
		}
	}
	return Model{}, false
}

// Media types of the print information command and the status reply.
const (
	MediaNone       byte = 0x00
	MediaContinuous byte = 0x0A
	MediaDieCut     byte = 0x0B
)

// Media is a roll of labels or tape.
type Media struct {
	// ID names it as Brother's tables do: "62" continuous, "29x90" die-cut.
	ID string
	// Type is MediaContinuous or MediaDieCut.
	Type byte
	// WidthMM, LengthMM as reported in the status (length 0 when
	// continuous).
	WidthMM, LengthMM int
	// Dots is the printable width; Lines the printable length of a
	// die-cut label (0 when continuous).
	Dots, Lines int
	// Offset is the number of unused pins before the printable area on
	// the raster line (the "right margin" of the unmirrored picture).
	Offset int
	// Wide is set for media only the 162-byte heads take.
	Wide bool
}

// Medias are the supported rolls (DK series).
var Medias = []Media{
	{ID: "12", Type: MediaContinuous, WidthMM: 12, Dots: 106, Offset: 29},
	{ID: "29", Type: MediaContinuous, WidthMM: 29, Dots: 306, Offset: 6},
	{ID: "38", Type: MediaContinuous, WidthMM: 38, Dots: 413, Offset: 12},
	{ID: "50", Type: MediaContinuous, WidthMM: 50, Dots: 554, Offset: 12},
	{ID: "54", Type: MediaContinuous, WidthMM: 54, Dots: 590, Offset: 0},
	{ID: "62", Type: MediaContinuous, WidthMM: 62, Dots: 696, Offset: 12},
	{ID: "102", Type: MediaContinuous, WidthMM: 102, Dots: 1164, Offset: 12, Wide: true},
	{ID: "17x54", Type: MediaDieCut, WidthMM: 17, LengthMM: 54, Dots: 165, Lines: 566, Offset: 0},
	{ID: "17x87", Type: MediaDieCut, WidthMM: 17, LengthMM: 87, Dots: 165, Lines: 956, Offset: 0},
	{ID: "23x23", Type: MediaDieCut, WidthMM: 23, LengthMM: 23, Dots: 202, Lines: 202, Offset: 42},
	{ID: "29x42", Type: MediaDieCut, WidthMM: 29, LengthMM: 42, Dots: 306, Lines: 425, Offset: 6},
	{ID: "29x90", Type: MediaDieCut, WidthMM: 29, LengthMM: 90, Dots: 306, Lines: 991, Offset: 6},
	{ID: "38x90", Type: MediaDieCut, WidthMM: 38, LengthMM: 90, Dots: 413, Lines: 991, Offset: 12},
	{ID: "39x48", Type: MediaDieCut, WidthMM: 39, LengthMM: 48, Dots: 425, Lines: 495, Offset: 6},
	{ID: "52x29", Type: MediaDieCut, WidthMM: 52, LengthMM: 29, Dots: 578, Lines: 271, Offset: 0},
	{ID: "62x29", Type: MediaDieCut, WidthMM: 62, LengthMM: 29, Dots: 696, Lines: 271, Offset: 12},
	{ID: "62x100", Type: MediaDieCut, WidthMM: 62, LengthMM: 100, Dots: 696, Lines: 1109, Offset: 12},
	{ID: "102x51", Type: MediaDieCut, WidthMM: 102, LengthMM: 51, Dots: 1164, Lines: 526, Offset: 12, Wide: true},
	{ID: "102x152", Type: MediaDieCut, WidthMM: 102, LengthMM: 153, Dots: 1164, Lines: 1660, Offset: 12, Wide: true},
}

// LookupMedia finds media by ID.
func LookupMedia(id string) (Media, error) {
	for _, m := range Medias {
		if m.ID == id {
			return m, nil
		}
	}
	return Media{}, fmt.Errorf("%w: %q", ErrMedia, id)
}

// String describes the media, as in "62 mm continuous".
func (m Media) String() string {
	if m.Type == MediaDieCut {
		return fmt.Sprintf("%dx%d mm die-cut", m.WidthMM, m.LengthMM)
	}
	return fmt.Sprintf("%d mm continuous", m.WidthMM)
}

// fits reports whether the media can be used on the model.
func (m Media) fits(mo Model) error {
	if m.Wide && mo.BytesPerLine < 162 {
		return fmt.Errorf("%w: %s needs a 102 mm head, %s has none", ErrMedia, m.ID, mo.Name)
	}
	if m.Offset+mo.ExtraOffset+m.Dots > mo.BytesPerLine*8 {
		return fmt.Errorf("%w: %s does not fit the head of %s", ErrMedia, m.ID, mo.Name)
	}
	return nil
}
