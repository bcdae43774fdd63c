// Package pad provides the cache-line padding that keeps fields written by
// different goroutines on different cache lines.
//
// When the owner and a thief of a queue write fields that share a cache line,
// every write by one invalidates the line in the other's cache (false
// sharing), and an operation that should touch only its own core's cache pays
// for a cross-core transfer instead. The queues place a Line between such
// groups of fields. Its size comes from golang.org/x/sys/cpu.CacheLinePad,
// which knows the line size of each architecture (64 bytes on amd64, 128 on
// arm64, where adjacent-line prefetch makes 128 the effective unit).
//
// Layout tests in each queue package check with reflect's field offsets that
// the fields the owner writes and the fields thieves write are at least Size
// bytes apart.
package pad
