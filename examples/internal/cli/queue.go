package cli

import (
	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/catalog"
)

// NewQueue returns a constructor of the named queue implementation of package
// catalog, for sched.Config.NewQueue. It checks the name once, here, and
// returns catalog's error for an unknown one, so that the constructor cannot
// fail when the scheduler calls it for each worker.
func NewQueue[T any](name string) (func() wsq.Queue[T], error) {
	if _, err := catalog.New[T](name); err != nil {
		return nil, err
	}
	return func() wsq.Queue[T] {
		q, err := catalog.New[T](name)
		if err != nil {
			panic(err) // cannot happen: the name was checked above
		}
		return q
	}, nil
}
