//go:build !wsqcheck

package blockq

// checking is false in a normal build: no deliberate bug can be switched
// on (see mutation.go).
const checking = false
