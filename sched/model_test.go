package sched

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The exhaustive models of the rule tables (crewtable_test.go,
// parktable_test.go, parkmaster_test.go) share this search. A model's
// state is a value that names itself (key) and copies itself (clone); the
// model lists the moves possible in a state, checks the invariants every
// state keeps, and says what a state with no move left must be.

// modelState is a state of a model.
type modelState[S any] interface {
	key() string
	clone() S
}

// modelMove is one possible move of a model: its name and how it changes a
// state.
type modelMove[S any] struct {
	name string
	do   func(m S) error
}

// model is what explore needs of a model.
type model[S modelState[S]] interface {
	moves(m S) ([]modelMove[S], error)
	check(m S) error
	final(m S) error
}

// errModel is a violation found, with the moves that led to it.
type errModel struct {
	why   string
	trail []string
}

func (e *errModel) Error() string {
	return e.why + "\nafter: " + strings.Join(e.trail, "; ")
}

// explorer tries every move of a model from a state, depth first, once
// per state. runs counts the states it explored.
type explorer[S modelState[S]] struct {
	model model[S]
	seen  map[string]bool
	runs  int
}

// exploreModel explores every state of md that start reaches, and returns
// how many there are, or the first violation as an *errModel.
func exploreModel[S modelState[S]](md model[S], start S) (states int, err error) {
	x := &explorer[S]{model: md, seen: map[string]bool{}}
	err = x.explore(start, nil)
	return x.runs, err
}

func (x *explorer[S]) explore(m S, trail []string) error {
	k := m.key()
	if x.seen[k] {
		return nil
	}
	x.seen[k] = true
	x.runs++
	if err := x.model.check(m); err != nil {
		return &errModel{err.Error(), trail}
	}
	ms, err := x.model.moves(m)
	if err != nil {
		return &errModel{err.Error(), trail}
	}
	if len(ms) == 0 {
		if err := x.model.final(m); err != nil {
			return &errModel{err.Error(), trail}
		}
		return nil
	}
	for _, mv := range ms {
		next := m.clone()
		path := append(slices.Clip(trail), mv.name)
		if err := mv.do(next); err != nil {
			return &errModel{err.Error(), path}
		}
		if next.key() == k {
			return &errModel{"a move that changes nothing: it would repeat it for ever", path}
		}
		if err := x.explore(next, path); err != nil {
			return err
		}
	}
	return nil
}

// wrongRule is a rule of a table changed for the worse, and what the
// model must say of a table with it.
type wrongRule[R any] struct {
	name string
	rule R
	want string
}

// requireFound checks that explore, given each wrong rule in place of its
// own, finds a violation that says what the rule's want says.
func requireFound[R any](t *testing.T, bugs []wrongRule[R], explore func(rule R) error) {
	t.Helper()
	for _, b := range bugs {
		t.Run(b.name, func(t *testing.T) {
			err := explore(b.rule)
			require.Error(t, err)
			require.Contains(t, err.Error(), b.want)
			t.Log(strings.SplitN(err.Error(), "\n", 2)[0])
		})
	}
}

// The models. The assertions also tell staticcheck that the methods are
// used: it does not follow calls through a type parameter.
var (
	_ model[*mstate]   = (*crewModel)(nil)
	_ model[*pstate]   = (*parkModel)(nil)
	_ model[*qstate]   = (*masterModel)(nil)
	_ model[*armState] = armModel{}
	_ model[*tokState] = tokModel{}
)
