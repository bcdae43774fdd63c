// Package catalog names every queue implementation of the module, so that
// benchmarks, the scheduler's users and the example programs can choose one
// by a string such as a command-line flag.
//
// The names are the ones used in benchmark results (queue=NAME) and in
// BENCHMARKS.md.
package catalog

import (
	"fmt"
	"strings"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/lfqueue"
	"github.com/worksteal/wsq/mutexq"
)

// Entry describes one queue implementation.
type Entry struct {
	// Name selects the implementation in New and in benchmark names.
	Name string
	// Description says in a few words what the implementation is.
	Description string
	// Capacity is the fixed capacity of a bounded queue, or 0 if the queue
	// grows without bound.
	Capacity int
}

// entries lists the implementations in the order reports show them. Every
// name here must have a case in New; TestCatalog checks both ways.
var entries = []Entry{
	{Name: "lf", Description: "bulk lock-free linked list (lfqueue), basic steal"},
	{Name: "lf-skip", Description: "bulk lock-free linked list (lfqueue), skip-count steal"},
	{Name: "mutex", Description: "slice behind a sync.Mutex (mutexq), the baseline"},
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

// New returns a new empty queue of the named implementation, or an error
// that lists the known names.
func New[T any](name string) (wsq.Queue[T], error) {
	switch name {
	case "lf":
		return lfqueue.New[T](), nil
	case "lf-skip":
		return lfqueue.New[T](lfqueue.WithSkipCount()), nil
	case "mutex":
		return mutexq.New[T](), nil
	}
	return nil, fmt.Errorf("catalog: unknown queue %q; known queues: %s", name, strings.Join(Names(), ", "))
}
