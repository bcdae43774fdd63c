//go:build amd64 || arm64

package sched

// curg returns a number that tells the calling goroutine apart from every
// other live goroutine: the address of its runtime descriptor (g), read
// by a few instructions of assembly (goid_GOARCH.s), where goroutineID
// costs microseconds. A goroutine that ends may leave its number to a new
// one.
func curg() uint64
