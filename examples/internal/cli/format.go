package cli

import (
	"fmt"
	"strings"
)

// Group formats n in decimal with commas between groups of three digits, as
// in 1,234,567. Every number a program prints for people goes through it.
func Group[T ~int | ~int32 | ~int64 | ~uint | ~uint32 | ~uint64](n T) string {
	s := fmt.Sprint(n)
	digits := strings.TrimPrefix(s, "-")
	var b strings.Builder
	if len(digits) < len(s) {
		b.WriteByte('-')
	}
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String()
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
