package input

import (
	"fmt"
	"regexp"
	"strconv"
)

// DateFields is an ISO date or time value split into the fields Chromium's
// date and time inputs show as segments. A field is "" when the value has
// none. Numbers are zero-padded to the width the segment takes.
type DateFields struct {
	Year, Month, Day, Week string
	Hour24                 int // -1 when the value has no time
	Minute, Second, Milli  string
}

// Field returns the keystrokes for the segment a Chromium date/time field
// pseudo-element names (hour in 12-hour form when the field shows AM/PM;
// "A" or "P" for the AM/PM segment, which picks by its first letter).
func (f DateFields) Field(segment string, twelveHour bool) string {
	switch segment {
	case "year":
		return f.Year
	case "month":
		return f.Month
	case "day":
		return f.Day
	case "week":
		return f.Week
	case "hour":
		if f.Hour24 < 0 {
			return ""
		}
		h := f.Hour24
		if twelveHour {
			h %= 12
			if h == 0 {
				h = 12
			}
		}
		return fmt.Sprintf("%02d", h)
	case "minute":
		return f.Minute
	case "second":
		return f.Second
	case "millisecond":
		return f.Milli
	case "ampm":
		if f.Hour24 < 0 {
			return ""
		}
		if f.Hour24 >= 12 {
			return "P"
		}
		return "A"
	}
	return ""
}

var (
	reDate  = regexp.MustCompile(`^(\d{4,6})-(\d{2})-(\d{2})$`)
	reTime  = regexp.MustCompile(`^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$`)
	reMonth = regexp.MustCompile(`^(\d{4,6})-(\d{2})$`)
	reWeek  = regexp.MustCompile(`^(\d{4,6})-W(\d{2})$`)
)

// DateFormats gives the ISO form each input type takes, for error messages.
var DateFormats = map[string]string{
	"date": "YYYY-MM-DD", "time": "HH:MM or HH:MM:SS", "datetime-local": "YYYY-MM-DDTHH:MM",
	"month": "YYYY-MM", "week": "YYYY-Www",
}

// ParseDateValue splits value, the ISO string an <input type=kind> takes as
// its value (date, time, datetime-local, month, week), into its fields, and
// rejects a malformed or out-of-range one.
func ParseDateValue(kind, value string) (DateFields, error) {
	f := DateFields{Hour24: -1}
	bad := fmt.Errorf("%q is not a %s value: want %s", value, kind, DateFormats[kind])
	date := func(s string) bool {
		m := reDate.FindStringSubmatch(s)
		if m == nil {
			return false
		}
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		if y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) {
			return false
		}
		f.Year, f.Month, f.Day = m[1], m[2], m[3]
		return true
	}
	clock := func(s string) bool {
		m := reTime.FindStringSubmatch(s)
		if m == nil {
			return false
		}
		h, _ := strconv.Atoi(m[1])
		mi, _ := strconv.Atoi(m[2])
		if h > 23 || mi > 59 {
			return false
		}
		if m[3] != "" {
			if sec, _ := strconv.Atoi(m[3]); sec > 59 {
				return false
			}
		}
		f.Hour24, f.Minute, f.Second = h, m[2], m[3]
		if m[4] != "" {
			f.Milli = (m[4] + "00")[:3]
		}
		return true
	}
	switch kind {
	case "date":
		if !date(value) {
			return f, bad
		}
	case "time":
		if !clock(value) {
			return f, bad
		}
	case "datetime-local":
		if len(value) < 11 || (value[10] != 'T' && value[10] != ' ') || !date(value[:10]) || !clock(value[11:]) {
			return f, bad
		}
	case "month":
		m := reMonth.FindStringSubmatch(value)
		if m == nil {
			return f, bad
		}
		if mo, _ := strconv.Atoi(m[2]); mo < 1 || mo > 12 {
			return f, bad
		}
		f.Year, f.Month = m[1], m[2]
	case "week":
		m := reWeek.FindStringSubmatch(value)
		if m == nil {
			return f, bad
		}
		if w, _ := strconv.Atoi(m[2]); w < 1 || w > 53 {
			return f, bad
		}
		f.Year, f.Week = m[1], m[2]
	default:
		return f, fmt.Errorf("%q is not a date or time input type", kind)
	}
	return f, nil
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
