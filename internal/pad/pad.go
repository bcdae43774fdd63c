package pad

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// Line is one cache line of padding. Put it between groups of fields that
// different goroutines write.
type Line = cpu.CacheLinePad

// Size is the size of Line in bytes.
const Size = unsafe.Sizeof(Line{})
