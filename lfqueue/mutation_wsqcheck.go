//go:build wsqcheck

package lfqueue

// mutNone switches every deliberate bug off.
const mutNone mutation = 0

// activeMutation is the deliberate bug switched on by the interleaving
// checker's self-test, or mutNone. Only that test sets it, while no queue
// is in use.
var activeMutation mutation

// mutated reports whether the deliberate bug m is switched on. See
// mutation.go.
func mutated(m mutation) bool { return activeMutation == m }
