//go:build !amd64 && !arm64

package sched

import (
	"bytes"
	"runtime"
)

// curg returns a number that tells the calling goroutine apart from every
// other live goroutine (see goid.go): here, its ID.
func curg() uint64 { return goroutineID() }

// goroutineID returns the ID of the calling goroutine, which the first line
// of its stack trace carries ("goroutine 18 [running]:"): the one way the
// runtime shows it. It costs some microseconds.
func goroutineID() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b, _ = bytes.CutPrefix(b, []byte("goroutine "))
	var id uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id
}
