//go:build !amd64 && !arm64

package atomicx

import (
	"bytes"
	"runtime"
)

// Goroutine returns a number that tells the calling goroutine apart from
// every other live goroutine: here, its ID, which the first line of its
// stack trace carries ("goroutine 18 [running]:"). It costs some
// microseconds.
func Goroutine() uint64 {
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
