// Package sched is a stub of github.com/worksteal/wsq/sched for the tests
// of taskcheck: the names it knows, with their signatures.
package sched

import "context"

type Task struct{}

func (t *Task) Block(f func())                            { f() }
func (t *Task) Context() context.Context                  { return context.Background() }
func (t *Task) NewGroup() *Group                          { return new(Group) }
func Do(ctx context.Context, f func(t *Task) error) error { return f(nil) }

type Pool struct{}

func (p *Pool) Do(ctx context.Context, f func(*Task) error) error { return f(nil) }
func (p *Pool) DoMeasured(ctx context.Context, f func(*Task) error) error {
	return f(nil)
}

type Future[R any] struct{ r R }

func (f Future[R]) Join(t *Task) R { return f.r }

func Fork[A, R any](t *Task, f func(*Task, A) R, a A) Future[R] { return Future[R]{f(t, a)} }
func ForkFunc[A any](t *Task, f func(*Task, A), a A) Future[struct{}] {
	f(t, a)
	return Future[struct{}]{}
}
func Join[A, RA, B, RB any](t *Task, f func(*Task, A) RA, a A, g func(*Task, B) RB, b B) (RA, RB) {
	return f(t, a), g(t, b)
}

type Group struct{}

func (g *Group) Go(t *Task, f func(*Task) error) { _ = f(t) }
func (g *Group) Wait(t *Task) error              { return nil }
