//go:build !wsqcheck

package lfqueue

// mutated reports whether the deliberate bug m is switched on: never, in a
// normal build. See mutation.go.
func mutated(mutation) bool { return false }
