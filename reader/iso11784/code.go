package iso11784

// Code is the 64-bit ISO 11784 animal identification code. Bit 0 is the
// first bit sent on air: bits 0–37 national ID, 38–47 country or
// manufacturer, 48 data-block flag, 49–62 reserved field, 63 animal flag.
type Code uint64
