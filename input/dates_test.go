package input

import "testing"

func TestParseDateValue(t *testing.T) {
	for _, tc := range []struct {
		kind, value string
		ok          bool
		want        map[string]string // segment -> keystrokes (12-hour when "ampm" is listed)
	}{
		{"date", "2024-03-09", true, map[string]string{"year": "2024", "month": "03", "day": "09"}},
		{"date", "2024-02-29", true, map[string]string{"day": "29"}},
		{"date", "2023-02-29", false, nil},
		{"date", "2024-3-9", false, nil},
		{"date", "09/03/2024", false, nil},
		{"date", "2024-13-01", false, nil},
		{"time", "13:45", true, map[string]string{"hour": "01", "minute": "45", "ampm": "P"}},
		{"time", "00:05:30", true, map[string]string{"hour": "12", "minute": "05", "second": "30", "ampm": "A"}},
		{"time", "12:00:00.5", true, map[string]string{"hour": "12", "millisecond": "500", "ampm": "P"}},
		{"time", "24:00", false, nil},
		{"time", "1:30", false, nil},
		{"datetime-local", "2024-03-09T13:45", true, map[string]string{"year": "2024", "day": "09", "hour": "01", "ampm": "P"}},
		{"datetime-local", "2024-03-09 08:15", true, map[string]string{"hour": "08", "ampm": "A"}},
		{"datetime-local", "2024-03-09", false, nil},
		{"month", "2024-03", true, map[string]string{"year": "2024", "month": "03"}},
		{"month", "2024-00", false, nil},
		{"week", "2024-W10", true, map[string]string{"year": "2024", "week": "10"}},
		{"week", "2024-W54", false, nil},
		{"week", "2024-10", false, nil},
		{"color", "#ff0000", false, nil},
	} {
		f, err := ParseDateValue(tc.kind, tc.value)
		if (err == nil) != tc.ok {
			t.Errorf("ParseDateValue(%s, %q) err = %v, want ok=%v", tc.kind, tc.value, err, tc.ok)
			continue
		}
		_, twelve := tc.want["ampm"]
		for seg, want := range tc.want {
			if got := f.Field(seg, twelve); got != want {
				t.Errorf("ParseDateValue(%s, %q).Field(%s) = %q, want %q", tc.kind, tc.value, seg, got, want)
			}
		}
	}
	if f, _ := ParseDateValue("time", "13:45"); f.Field("hour", false) != "13" {
		t.Errorf("24-hour field: %q", f.Field("hour", false))
	}
}
