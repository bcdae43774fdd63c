//go:build wsqcheck

package atomicx

import "github.com/worksteal/wsq/internal/check/interleave"

// checking is true in the interleaving checker's build (tag wsqcheck):
// every atomic operation and every Lock and Unlock is first a scheduling
// point of internal/check/interleave. Outside an exploration a scheduling
// point costs one atomic load and the types behave as in the normal build,
// so every other test still runs.
const checking = true

var kinds = [...]interleave.Kind{
	opLoad:           interleave.Load,
	opStore:          interleave.Store,
	opSwap:           interleave.Swap,
	opCompareAndSwap: interleave.CompareAndSwap,
	opLock:           interleave.Lock,
	opUnlock:         interleave.Unlock,
	opTryLock:        interleave.TryLock,
	opWait:           interleave.Wait,
	opStoreRelease:   interleave.StoreRelease,
}

// before is the scheduling point before operation o on obj. It reports
// whether the execution is traced, in which case the caller reports the
// operands and the result with after.
func before(o op, obj any) bool { return interleave.Point(kinds[o], obj) }

// after reports the operands and the result of a traced operation.
func after(vals ...any) { interleave.Result(vals...) }

// acquired tells the scheduler that the running thread holds m.
func acquired(m *Mutex) { interleave.Acquired(m) }

// released tells the scheduler that m is free again.
func released(m *Mutex) { interleave.Released(m) }
