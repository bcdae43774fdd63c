package cli

import (
	"math"
	"strconv"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// numbers prints numbers as English does, grouped by thousands.
var numbers = message.NewPrinter(language.English)

// Group formats n in decimal with commas between groups of three digits, as
// in 1,234,567. Every number a program prints for people goes through it.
func Group[T ~int | ~int32 | ~int64 | ~uint | ~uint32 | ~uint64](n T) string {
	return numbers.Sprintf("%d", n)
}

// Count formats n, grouped, followed by unit, with an s added to it unless n
// is 1: Count(1, "worker") is "1 worker", Count(1000, "node") is "1,000
// nodes".
func Count[T ~int | ~int32 | ~int64 | ~uint | ~uint32 | ~uint64](n T, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return Group(n) + " " + unit + "s"
}

// Duration formats d for people, rounded to three significant digits in the
// unit its size calls for: 664ns, 96.2µs, 1.23ms, 4.5s, 2m3s. A run too
// short for milliseconds still shows its microseconds.
func Duration(d time.Duration) string {
	if d < 0 {
		return "-" + Duration(-d)
	}
	unit := time.Duration(1)
	for v := d; v >= 1000; v /= 10 {
		unit *= 10
	}
	return d.Round(unit).String()
}

// Rate formats n events in d as a rate per second, followed by units and
// "/s": grouped from 100 up (17,392 directories/s), in millions from a
// million up (2.35 M nodes/s), with three significant digits below 100
// (0.500 steals/s). With units "" it is the number and "/s" alone. For
// d <= 0, which no clock can time, it returns "too short to measure".
func Rate(n int64, d time.Duration, units string) string {
	if d <= 0 {
		return "too short to measure"
	}
	v := float64(n) / d.Seconds()
	var s string
	switch {
	case v >= 1e6:
		s = significant(v/1e6) + " M"
	case v >= 100:
		s = Group(int64(math.Round(v)))
	default:
		s = significant(v)
	}
	if units != "" {
		s += " " + units
	}
	return s + "/s"
}

// significant formats v >= 0 with three significant digits, or as a whole
// number from 1000 up: 0.00123, 1.23, 12.3, 123, 1235.
func significant(v float64) string {
	if v == 0 {
		return "0"
	}
	decimals := max(0, 2-int(math.Floor(math.Log10(v))))
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if r, _ := strconv.ParseFloat(s, 64); decimals > 0 && r >= math.Pow10(3-decimals) {
		s = strconv.FormatFloat(v, 'f', decimals-1, 64) // 9.996 rounds to 10.0, not 10.00
	}
	return s
}
