package sqlite

import (
	"time"

	"github.com/chipdesk/chipdesk/service/store/filter"
)

// whereOf writes conditions in SQLite's dialect: instants as the stored
// text, a substring match on the lower-cased column.
func whereOf(cs []filter.Cond) where {
	var w where
	for _, c := range cs {
		v := c.Val
		if t, ok := v.(time.Time); ok {
			v = formatStamp(t)
		}
		switch c.Op {
		case filter.Eq:
			w.add(c.Col+" = ?", v)
		case filter.Ge:
			w.add(c.Col+" >= ?", v)
		case filter.Lt:
			w.add(c.Col+" < ?", v)
		case filter.Contains:
			w.add("LOWER("+c.Col+`) LIKE ? ESCAPE '\'`, "%"+filter.EscapeLike(lowerASCII(v.(string)))+"%")
		case filter.Empty:
			w.add(c.Col + " = ''")
		case filter.NotEmpty:
			w.add(c.Col + " <> ''")
		}
	}
	return w
}
