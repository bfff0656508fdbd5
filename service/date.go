package service

import (
	"database/sql/driver"
	"fmt"
	"time"
)

// Date is a civil date: a calendar day with no time of day and no zone.
// The zero Date means "no date". Dates compare with < and ==, and
// subtract to a number of days.
//
// Internally a Date counts days from 0001-01-01 (which is Date(1)).
type Date int32

// unixEpochDays is the Date number of 1970-01-01 minus one: the days from
// 0001-01-01 to 1970-01-01 in the proleptic Gregorian calendar.
const unixEpochDays = 719162

// NewDate returns the date y-m-d. Out-of-range months and days normalise
// as with time.Date (January 32 is February 1).
func NewDate(y int, m time.Month, d int) Date {
	t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return Date(t.Unix()/86400 + unixEpochDays + 1)
}

// DateOf returns the calendar day of t in t's own location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return NewDate(y, m, d)
}

// DateIn returns the calendar day of the instant t as seen in loc.
func DateIn(t time.Time, loc *time.Location) Date {
	return DateOf(t.In(loc))
}

// DateError reports text that is not a calendar date in the form
// YYYY-MM-DD ("2026-02-30", "10/06/2026"). Adapters use Text to find the
// field that held it.
type DateError struct{ Text string }

func (e *DateError) Error() string {
	return fmt.Sprintf("service: bad date %q, want YYYY-MM-DD", e.Text)
}

// ParseDate parses the ISO 8601 form YYYY-MM-DD. The empty string parses
// to the zero Date. A text that is not a calendar date is a *DateError.
func ParseDate(s string) (Date, error) {
	if s == "" {
		return 0, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil || t.Year() < 1 {
		return 0, &DateError{Text: s}
	}
	return DateOf(t), nil
}

// ParseDateField parses a date a person typed into field, answering an
// EINVALID error that names the field when it is not a calendar date.
func ParseDateField(field, s string) (Date, error) {
	d, err := ParseDate(s)
	if err != nil {
		return 0, Invalidf(field, "%s: %q is not a calendar date (YYYY-MM-DD).", field, s)
	}
	return d, nil
}

// NotFuture refuses a date after today for an event that has happened
// (a bite, an intake, a declaration, a vaccination): EINVALID naming
// field.
func NotFuture(field string, d, today Date) error {
	if !d.IsZero() && d > today {
		return Invalidf(field, "%s: %s is in the future (today is %s).", field, d, today)
	}
	return nil
}

// MustDate is NewDate for constants in tests and examples.
func MustDate(s string) Date {
	d, err := ParseDate(s)
	if err != nil {
		panic(err)
	}
	return d
}

// IsZero reports whether d is the zero ("no date") value.
func (d Date) IsZero() bool { return d == 0 }

// Time returns midnight at the start of d in loc.
func (d Date) Time(loc *time.Location) time.Time {
	y, m, dd := d.Date()
	return time.Date(y, m, dd, 0, 0, 0, 0, loc)
}

// Date returns the year, month and day of d.
func (d Date) Date() (year int, month time.Month, day int) {
	return time.Unix(int64(d-1-unixEpochDays)*86400, 0).UTC().Date()
}

// Year returns the year of d.
func (d Date) Year() int { y, _, _ := d.Date(); return y }

// Month returns the month of d.
func (d Date) Month() time.Month { _, m, _ := d.Date(); return m }

// Day returns the day of the month of d.
func (d Date) Day() int { _, _, dd := d.Date(); return dd }

// Weekday returns the day of the week of d.
func (d Date) Weekday() time.Weekday {
	// 0001-01-01 (Date 1) was a Monday.
	return time.Weekday((int(d-1) + 1) % 7)
}

// AddDays returns d moved by n days.
func (d Date) AddDays(n int) Date { return d + Date(n) }

// AddMonths returns d moved by n calendar months. A day that does not
// exist in the target month is clamped to its last day (January 31 plus
// one month is February 28 or 29; February 29 plus twelve months is
// February 28).
func (d Date) AddMonths(n int) Date {
	y, m, dd := d.Date()
	total := y*12 + int(m-1) + n
	ty, tm := total/12, time.Month(total%12+1)
	if last := daysIn(ty, tm); dd > last {
		dd = last
	}
	return NewDate(ty, tm, dd)
}

// AddYears returns d moved by n years, clamping February 29.
func (d Date) AddYears(n int) Date { return d.AddMonths(12 * n) }

func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// String returns d as YYYY-MM-DD, or "" for the zero Date.
func (d Date) String() string {
	if d == 0 {
		return ""
	}
	var b [10]byte
	return string(d.appendTo(b[:0]))
}

// appendTo appends YYYY-MM-DD (years 0001-9999) to b.
func (d Date) appendTo(b []byte) []byte {
	y, m, dd := d.Date()
	if y < 1 || y > 9999 {
		return fmt.Appendf(b, "%04d-%02d-%02d", y, int(m), dd)
	}
	return append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+int(m)/10), byte('0'+int(m)%10), '-', byte('0'+dd/10), byte('0'+dd%10))
}

// MarshalText implements encoding.TextMarshaler (JSON encodes a Date as a
// "YYYY-MM-DD" string, the zero Date as "").
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Date) UnmarshalText(b []byte) error {
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Value implements driver.Valuer: NULL for the zero Date, else the
// YYYY-MM-DD text.
func (d Date) Value() (driver.Value, error) {
	if d == 0 {
		return nil, nil
	}
	return d.String(), nil
}

// Scan implements sql.Scanner for NULL, text and time values.
func (d *Date) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*d = 0
		return nil
	case string:
		return d.UnmarshalText([]byte(v))
	case []byte:
		return d.UnmarshalText(v)
	case time.Time:
		*d = DateOf(v)
		return nil
	}
	return fmt.Errorf("service: cannot scan %T into Date", src)
}
