//go:build race

package sched

// raceEnabled reports whether the race detector is on: then every call
// that takes a Task also checks that the calling goroutine is the task's
// (see Task.use).
const raceEnabled = true
