//go:build wsqchaos && !wsqcheck

package atomicx

import "github.com/worksteal/wsq/internal/check/chaos"

// checking is true in the chaos build (tag wsqchaos): before every atomic
// operation and every Lock and Unlock, internal/check/chaos may yield the
// processor or put the goroutine to sleep, so that the windows between a
// load and the compare-and-swap that depends on it become long. (With both
// tags, wsqcheck wins: an exploration needs a deterministic program.)
const checking = true

// before is the chaos point before operation o. It never asks for a trace.
func before(o op, _ any) bool {
	if o == opWait {
		chaos.Point(false)
		return false // and SpinWait yields as in a normal build
	}
	chaos.Point(o != opLoad && o != opLock)
	return false
}

func after(...any)    {}
func acquired(*Mutex) {}
func released(*Mutex) {}
