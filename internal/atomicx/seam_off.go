//go:build !wsqcheck && !wsqchaos

package atomicx

// checking is false in a normal build: the methods are the bare sync/atomic
// and sync.Mutex operations, and the hooks below are never called.
const checking = false

func before(op, any) bool { return false }
func after(...any)        {}
func acquired(*Mutex)     {}
func released(*Mutex)     {}
