package sched

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
)

// The default pool serves code that is not a task: a call with a nil Task
// runs there. Like rayon's global pool, it starts at its first use and
// lives as long as the program.
//
//	who calls                    with a nil Task
//	a goroutine that is no task  runs the call as a task of the default pool, and waits
//	a task, of any Pool          panics: it would block its worker; pass t
//	a Task.Block's function      as a goroutine that is no task
//
// Go has no goroutine-local state, so a Pool knows the goroutines that run
// its workers by atomicx.Goroutine (crew.caller). pools holds every Pool,
// so that a nil from any pool's task is caught, not only the default's.

// defaultPool is the default pool's slot.
var defaultPool poolSlot

// poolSlot holds a pool that starts once: the default pool.
type poolSlot struct {
	mu sync.Mutex           // serializes starts: the first get, and set
	p  atomic.Pointer[Pool] // nil until the start; then set for good
}

// pools holds the crews of every Pool from NewPool to Close, for
// calledByTask. NewPool and Close replace the slice, under the lock; a
// call with a nil Task reads it without one.
var pools struct {
	mu   sync.Mutex
	list atomic.Pointer[[]*crew]
}

// addPool adds c to pools.
func addPool(c *crew) {
	pools.mu.Lock()
	defer pools.mu.Unlock()
	var list []*crew
	if old := pools.list.Load(); old != nil {
		list = slices.Clone(*old)
	}
	list = append(list, c)
	pools.list.Store(&list) // atomic: calledByTask loads it without the lock
}

// removePool takes c off pools.
func removePool(c *crew) {
	pools.mu.Lock()
	defer pools.mu.Unlock()
	if old := pools.list.Load(); old != nil {
		list := slices.DeleteFunc(slices.Clone(*old), func(x *crew) bool { return x == c })
		pools.list.Store(&list)
	}
}

// Default returns the default pool: the Pool that every call with a nil
// Task runs on, and Do. It starts the pool at the first call, with
// GOMAXPROCS workers and the default queue, or as SetDefault set it up.
// The pool is never closed: Close panics. Its workers park when it has
// nothing to run, so an idle default pool costs no processor time. Any
// goroutine may call Default; after the first call it costs one atomic
// load.
func Default() *Pool {
	return defaultPool.get()
}

// SetDefault sets up the default pool as cfg describes, and starts it.
// It may be called once, before the default pool's first use: a call of
// Default, of Do or of a function with a nil Task. It returns an error,
// and changes nothing, if the default pool has started by then, or if cfg
// is invalid (see NewPool).
//
//	func main() {
//		if err := sched.SetDefault(sched.PoolConfig{Workers: 4}); err != nil {
//			log.Fatal(err)
//		}
//		...
//	}
func SetDefault(cfg PoolConfig) error {
	return defaultPool.set(cfg)
}

// errDefaultStarted is SetDefault's error once the default pool runs.
var errDefaultStarted = errors.New("sched: SetDefault after the default pool started: call it once, before the first call of Default, of Do, or of a function with a nil Task")

// get returns the slot's pool, and starts it with the zero PoolConfig if
// it has not started.
func (ps *poolSlot) get() *Pool {
	if p := ps.p.Load(); p != nil { // atomic: a start stores it once
		return p
	}
	p, _ := ps.start(PoolConfig{}, false)
	return p
}

// set starts the slot's pool with cfg, unless it has started, which is an
// error.
func (ps *poolSlot) set(cfg PoolConfig) error {
	_, err := ps.start(cfg, true)
	return err
}

// start starts the slot's pool with cfg, unless it has started, and
// returns it. With set, a pool that has started is an error.
func (ps *poolSlot) start(cfg PoolConfig, set bool) (*Pool, error) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if p := ps.p.Load(); p != nil {
		if set {
			return nil, errDefaultStarted
		}
		return p, nil
	}
	p, err := NewPool(cfg)
	if err != nil {
		if !set {
			panic(err) // the zero PoolConfig is valid
		}
		return nil, err
	}
	ps.p.Store(p) // atomic: get loads it without the lock
	return p, nil
}

// Do runs f as a task of the default pool, with context ctx, and waits for
// it and every task it started. It is Default().Do, for a goroutine that
// is not a task: see Pool.Do. A call with a nil Task, such as For(nil, n,
// body), runs through Do.
//
//	err := sched.Do(ctx, func(t *sched.Task) error {
//		r = fib(t, 40)
//		return nil
//	})
//
// Do panics if a task calls it, a task of any Pool, outside a Task.Block
// function: its wait would block the task's worker. A task passes its own
// t instead. Each call makes a Group, and hands f to an idle worker.
func Do(ctx context.Context, f func(t *Task) error) error {
	return doDefault(ctx, "Do, or a call with a nil Task", f)
}

// doDefault runs f as a task of the default pool with ctx and waits for
// it, for the call what describes: Do, a ...Context form, or a call with
// a nil Task. It panics if a task calls it, with a message that names
// the call. A panic or Goexit of f passes on as Pool.Do passes it.
func doDefault(ctx context.Context, what string, f func(t *Task) error) error {
	if calledByTask() {
		panic(byTask(what))
	}
	return Default().Do(ctx, f)
}

// runDefault is doDefault for op called with a nil Task, with an f that
// cannot fail.
func runDefault(op string, f func(t *Task)) {
	_ = doDefault(context.Background(), op+" with a nil Task", func(t *Task) error {
		f(t)
		return nil
	})
}

// byTask returns the message of the panic of a call that only a goroutine
// that is not a task may make, what, by a task.
func byTask(what string) string {
	return "sched: " + what + ", called by a task: a task passes its own t, so that its worker runs other tasks while it waits; a nil Task, Do and the Context forms are for goroutines that are not tasks"
}

// calledByTask reports whether the calling goroutine runs a task of some
// Pool: it runs a worker and is not in a Task.Block function, or its task
// goes on unseated after a Block. It looks at each worker of each Pool: a
// few loads per worker.
func calledByTask() bool {
	list := pools.list.Load()
	if list == nil {
		return false
	}
	for _, c := range *list {
		if r := c.caller(); r != nil {
			return r.top != nil // top is nil in Task.Block's function
		}
		if c.unseatedCaller() != nil {
			return true // after its Block, without its worker: a task all the same
		}
	}
	return false
}

// nilWait panics if a task of any pool calls op with a nil Task: the wait
// would block its worker, and on a pool of one worker never end. A
// goroutine in Task.Block's function runs no task.
func nilWait(op string) {
	if calledByTask() {
		panic(byTask(op + " with a nil Task"))
	}
}
