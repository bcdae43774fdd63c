package pad

import (
	"unsafe" // Sizeof gives Line's size as a constant, which reflect cannot.

	"golang.org/x/sys/cpu"
)

// Line is one cache line of padding. Put it between groups of fields that
// different goroutines write.
type Line = cpu.CacheLinePad

// Size is the size of Line in bytes.
const Size = unsafe.Sizeof(Line{})
