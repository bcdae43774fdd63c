//go:build amd64 || arm64

package atomicx

// Goroutine returns a number that tells the calling goroutine apart from
// every other live goroutine. It is the address of the goroutine's runtime
// descriptor (g), read by a few instructions of assembly
// (goroutine_GOARCH.s). Go has no primitive for it: the goroutine's ID is
// in its stack trace only, which costs microseconds to read.
//
// Why it is correct: the runtime keeps the running goroutine's g in
// thread-local storage on amd64 (the slot the runtime's own assembly reads
// with get_tls) and in register R28 on arm64. The g stays the goroutine's
// for its life, wherever it runs. A goroutine that ends may leave its g,
// and so its number, to a new goroutine.
func Goroutine() uint64
