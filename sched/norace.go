//go:build !race

package sched

// raceEnabled reports whether the race detector is on (see race.go).
const raceEnabled = false
