//go:build wsqcheck

package blockq

// checking is true in the interleaving checker's build, where its
// self-test switches deliberate bugs on (see mutation.go).
const checking = true
