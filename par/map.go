package par

import (
	"context"

	"github.com/worksteal/wsq/sched"
)

// Map returns a new slice that holds f(s[i]) at each index i, computed in
// parallel when other workers look for work, as For would. The result has
// len(s) elements; Map of a nil s returns nil, as slices.Clone does. It
// panics if f is nil, and with a *sched.PanicError if f panics. With a nil t, it
// runs on the default pool (see sched.Do).
//
//	lengths := par.Map(t, words, func(t *sched.Task, w string) int { return len(w) })
//
// Map splits the slice as For splits a range: see Loop.
func Map[T, R any](t *sched.Task, s []T, f func(t *sched.Task, x T) R) []R {
	checkLoop("Map", f == nil)
	if t == nil {
		var out []R
		onDefault(func(t *sched.Task) { out = Map(t, s, f) })
		return out
	}
	if s == nil {
		return nil
	}
	out := make([]R, len(s))
	ForRange(t, len(s), func(t *sched.Task, lo, hi int) {
		for i, x := range s[lo:hi] {
			out[lo+i] = f(t, x)
		}
	})
	return out
}

// MapErr is Map for a function that may fail: it stops at the first error
// or at a cancellation of t's context, as ForErr does, and then returns
// nil and that error. With no error it returns what Map would and nil.
// Map stops at a cancellation too, with its result half filled: its
// caller learns it from t.Context().Err().
func MapErr[T, R any](t *sched.Task, s []T, f func(t *sched.Task, x T) (R, error)) ([]R, error) {
	checkLoop("MapErr", f == nil)
	if t == nil {
		var out []R
		err := sched.Do(context.Background(), func(t *sched.Task) error {
			var err error
			out, err = MapErr(t, s, f)
			return err
		})
		return out, err
	}
	if s == nil {
		return nil, nil
	}
	out := make([]R, len(s))
	err := ForRangeErr(t, len(s), func(t *sched.Task, lo, hi int) error {
		for i, x := range s[lo:hi] {
			r, err := f(t, x)
			if err != nil {
				return err
			}
			out[lo+i] = r
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
