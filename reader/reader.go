package reader

import (
	"context"
	"errors"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
)

// Air names the air interface (the protocol between chip and antenna)
// a chip answered on, when the reader tells it. Many readers print
// FDX-B and HDX codes identically; those reads carry AirISO. It is not
// a reader's protocol on its port, drivers/readers.Protocol.
type Air string

// Air protocols.
const (
	AirUnknown Air = ""
	AirFDXB    Air = "FDX-B" // ISO 11785 full duplex, 134.2 kHz
	AirHDX     Air = "HDX"   // ISO 11785 half duplex, 134.2/124.2 kHz FSK
	AirISO     Air = "ISO"   // ISO 11784 code, FDX-B or HDX not told by the reader
	AirFDXA    Air = "FDX-A" // FECAVA / Destron / HomeAgain legacy, 125 kHz
	AirAVID    Air = "AVID"  // AVID FriendChip / Encrypted
	AirTrovan  Air = "Trovan"
)

// Read is one chip read by one reader.
type Read struct {
	// ID is the normalised chip identity, parsed by package chipid.
	ID chipid.ID
	// Protocol is the air interface, when the reader reports it.
	Protocol Air
	// Format names the reader output format the read came in
	// ("wl134", "allflex", "fdxb-demod", ...).
	Format string
	// Source names the reader (its String()).
	Source string
	// Raw holds the bytes of the frame or line as received.
	Raw []byte
	// Ext is the 24-bit FDX-B extension block when the reader gives it
	// and the data-block flag is set; HasExt tells whether it is present.
	Ext    uint32
	HasExt bool
	// Quality is a signal-quality figure in [0, 1] when the source is a
	// demodulator; 0 when unknown.
	Quality float64
	// At is the receive time, from the driver's injected clock.
	At time.Time
}

// Reader is a source of chip reads. Drivers are pull based: Next blocks
// until a chip is read, ctx is done, or the reader fails.
type Reader interface {
	// Next returns the next read. It returns ErrClosed after Close, and
	// an error wrapping port.ErrHangup (or another transport error)
	// when the device went away.
	Next(ctx context.Context) (Read, error)
	// Close releases the reader and its port.
	Close() error
	// String names the reader, for logs and Read.Source.
	String() string
}

// ErrClosed is returned by Next after the reader was closed by its owner.
var ErrClosed = errors.New("reader: closed")
