//go:build race

package sched

// raceEnabled reports whether the race detector is on; checks that cost
// too much for every call then run.
const raceEnabled = true
