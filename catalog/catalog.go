package catalog

import (
	"fmt"
	"strings"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/blockq"
	"github.com/worksteal/wsq/chaselev"
	"github.com/worksteal/wsq/lfqueue"
	"github.com/worksteal/wsq/mutexq"
	"github.com/worksteal/wsq/tfdeque"
)

// Entry describes one queue implementation.
type Entry struct {
	// Name selects the implementation in New and in benchmark names.
	Name string
	// Description says in a few words what the implementation is. The
	// description of a bounded queue ends with its capacity, as in
	// "..., capacity 256", because such a queue refuses items beyond it:
	// a Push that reports false, or a PushBatch that takes only a prefix,
	// leaves the rest of the items to the caller.
	Description string
	// Capacity is the fixed capacity of a bounded queue, or 0 if the queue
	// grows without bound.
	Capacity int
	// Contract is what the implementation's queues report from
	// wsq.Queue.Contract: which of the interface's rules they relax.
	Contract wsq.Contract
}

// entries lists the implementations in the order reports show them. Every
// name here must have a case in New; TestCatalog checks both ways. init
// completes the descriptions of the bounded queues with their capacity.
var entries = []Entry{
	{Name: "bq", Description: "lock-free bulk queue of linked blocks (blockq), the recommended queue"},
	{Name: "lf", Description: "bulk lock-free linked list (lfqueue), basic steal"},
	{Name: "lf-skip", Description: "bulk lock-free linked list (lfqueue), skip-count steal"},
	{Name: "tf-ub", Description: "Taskflow UnboundedWSQ (tfdeque), per-item push loop, loop of single steals"},
	{Name: "tf-bd", Description: "Taskflow BoundedWSQ (tfdeque), per-item push loop, loop of single steals", Capacity: tfdeque.DefaultBoundedCapacity},
	{Name: "tf-ub-bulk", Description: "Taskflow UnboundedWSQ (tfdeque), v4 bulk push, loop of single steals"},
	{Name: "tf-bd-bulk", Description: "Taskflow BoundedWSQ (tfdeque), v4 bulk push, loop of single steals", Capacity: tfdeque.DefaultBoundedCapacity},
	{Name: "cl-ub", Description: "unbounded Chase-Lev ring (chaselev), batch push and one-step batch steal"},
	{Name: "cl-bd", Description: "bounded Chase-Lev ring (chaselev), batch push and one-step batch steal", Capacity: clBoundedCapacity},
	{Name: "mutex", Description: "slice behind a sync.Mutex (mutexq), the baseline"},
}

// The chaselev entries use Taskflow's capacities, so that they compare like
// for like with the tf entries.
const (
	clUnboundedCapacity = tfdeque.DefaultUnboundedCapacity
	clBoundedCapacity   = tfdeque.DefaultBoundedCapacity
)

func init() {
	for i := range entries {
		q, err := New[struct{}](entries[i].Name)
		if err != nil {
			panic(err)
		}
		entries[i].Contract = q.Contract()
		if entries[i].Contract.Capacity != entries[i].Capacity {
			panic("catalog: the capacity of " + entries[i].Name + " differs from its queues' Contract")
		}
		if c := entries[i].Capacity; c > 0 {
			entries[i].Description += fmt.Sprintf(", capacity %d", c)
		}
	}
}

// Entries returns a description of every implementation, in report order.
func Entries() []Entry { return append([]Entry(nil), entries...) }

// Names returns the name of every implementation, in report order.
func Names() []string {
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name
	}
	return names
}

// Lookup returns the entry with the given name.
func Lookup(name string) (Entry, bool) {
	for _, e := range entries {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// Every implementation is instantiated here once, for an arbitrary item
// type. This is a compile-time check that each satisfies wsq.Queue, and it
// has a second purpose: it puts the inline bodies of the queues' non-generic
// helpers (the atomic operations of internal/atomicx, the index packing of
// chaselev and lfqueue) into this package's export data. A program that
// reaches the queues only through catalog compiles their generic code itself,
// and the Go compiler (1.24 to 1.26 at least) inlines those helpers there
// only if an imported package's export data carries their bodies; without
// an instantiation here every atomic operation of such a program is a
// function call, and a pop costs about 20 % more. (The New[struct{}] calls
// of init instantiate the queues too, but only as a side effect of filling
// in the contracts; these lines say that the instantiation is wanted.)
// TestQueuesInlined, in this package's tests, builds testdata/onlycatalog, a
// program that imports only catalog, and checks its machine code: it fails
// without any instantiation of the queues in this package.
var (
	_ wsq.Queue[struct{}] = (*blockq.Queue[struct{}])(nil)
	_ wsq.Queue[struct{}] = (*lfqueue.Queue[struct{}])(nil)
	_ wsq.Queue[struct{}] = (*chaselev.Deque[struct{}])(nil)
	_ wsq.Queue[struct{}] = (*tfdeque.Deque[struct{}])(nil)
	_ wsq.Queue[struct{}] = (*mutexq.Queue[struct{}])(nil)
)

// Factory returns a function that makes new empty queues of the named
// implementation, or the error New would return. It checks the name once,
// so that the function fits where a constructor without an error is wanted,
// such as sched.Config.NewQueue.
func Factory[T any](name string) (func() wsq.Queue[T], error) {
	if _, err := New[T](name); err != nil {
		return nil, err
	}
	return func() wsq.Queue[T] {
		q, err := New[T](name)
		if err != nil {
			panic(err) // unreachable: the name was checked
		}
		return q
	}, nil
}

// New returns a new empty queue of the named implementation, or an error
// that lists the known names.
func New[T any](name string) (wsq.Queue[T], error) {
	switch name {
	case "bq":
		return blockq.New[T](), nil
	case "lf":
		return lfqueue.New[T](), nil
	case "lf-skip":
		return lfqueue.New[T](lfqueue.WithSkipCount()), nil
	case "tf-ub":
		return tfdeque.NewUnbounded[T](), nil
	case "tf-bd":
		return tfdeque.NewBounded[T](), nil
	case "tf-ub-bulk":
		return tfdeque.NewUnbounded[T](tfdeque.WithPushStyle(tfdeque.Bulk)), nil
	case "tf-bd-bulk":
		return tfdeque.NewBounded[T](tfdeque.WithPushStyle(tfdeque.Bulk)), nil
	case "cl-ub":
		return chaselev.NewUnbounded[T](clUnboundedCapacity), nil
	case "cl-bd":
		return chaselev.NewBounded[T](clBoundedCapacity), nil
	case "mutex":
		return mutexq.New[T](), nil
	}
	return nil, fmt.Errorf("catalog: unknown queue %q; known queues: %s", name, strings.Join(Names(), ", "))
}
