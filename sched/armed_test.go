package sched

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// A model of how the crew arms its cleanup after garbage collections
// (crew.armed): Blocks raise recent and arm (addBlocked, arm); each
// collection calls collected once per armed cleanup, which keeps it
// armed while recent or previous holds a count, and else disarms, then
// looks at recent once more. Every order of the atomic steps, in small
// scope, must leave no count in recent that no collection will see.

// armState is the model's state: the crew's atomics, the cleanups
// registered and not yet run, and where each Block and the collection
// stand in their steps.
type armState struct {
	recent, previous, blocked int
	armed                     bool
	cleanups                  int
	blocks                    [2]armBlock
	collecting                int // the running collected's step; 0: none
	loaded                    int // what it loaded of recent
	collections               int // collections left to run
}

// armBlock is a Block's step (see armModel.blockStep) and whether it saw
// the cleanup armed.
type armBlock struct {
	step int
	saw  bool
}

func (s *armState) key() string      { return fmt.Sprint(*s) }
func (s *armState) clone() *armState { c := *s; return &c }

// armRules are the two orders the protocol rests on: a Block raises
// recent before it loads armed (raiseFirst), and collected clears armed
// before it loads recent (disarmFirst).
type armRules struct{ raiseFirst, disarmFirst bool }

type armModel struct{ rules armRules }

func (am armModel) moves(s *armState) ([]modelMove[*armState], error) {
	var ms []modelMove[*armState]
	for i := range s.blocks {
		if s.blocks[i].step < 5 {
			ms = append(ms, modelMove[*armState]{fmt.Sprintf("block%d.%d", i, s.blocks[i].step), func(s *armState) error {
				am.blockStep(s, i)
				return nil
			}})
		}
	}
	if s.collecting > 0 {
		ms = append(ms, modelMove[*armState]{fmt.Sprintf("collected.%d", s.collecting), func(s *armState) error {
			am.collectStep(s)
			return nil
		}})
	} else if s.cleanups > 0 && s.collections > 0 {
		ms = append(ms, modelMove[*armState]{"collection", func(s *armState) error {
			s.cleanups--
			s.collections--
			s.collecting = 1
			return nil
		}})
	}
	return ms, nil
}

// blockStep is one step of addBlocked and the Block's end: 0 blocked++,
// 1 and 2 the raise of recent and the load of armed (in the order of the
// rule), 3 the CAS of arm unless it saw armed, 4 blocked--.
func (am armModel) blockStep(s *armState, i int) {
	b := &s.blocks[i]
	switch st := b.step; {
	case st == 0:
		s.blocked++
	case st == 1 && am.rules.raiseFirst, st == 2 && !am.rules.raiseFirst:
		s.recent = max(s.recent, s.blocked)
	case st == 1, st == 2:
		b.saw = s.armed
	case st == 3:
		if !b.saw && !s.armed {
			s.armed = true
			s.cleanups++
		}
	case st == 4:
		s.blocked--
	}
	b.step++
}

// collectStep is one step of collected: 1 the swap of recent under mu,
// re-armed at once unless previous is zero; 2 and 3 the clearing of armed
// and the load of recent (in the order of the rule); 4 the CAS of arm if
// it loaded a count.
func (am armModel) collectStep(s *armState) {
	next := s.collecting + 1
	switch st := s.collecting; {
	case st == 1:
		s.previous, s.recent = s.recent, s.blocked
		if s.previous != 0 {
			s.cleanups++
			next = 0
		}
	case st == 2 && am.rules.disarmFirst, st == 3 && !am.rules.disarmFirst:
		s.armed = false
	case st == 2, st == 3:
		s.loaded = s.recent
	case st == 4:
		if s.loaded > 0 && !s.armed {
			s.armed = true
			s.cleanups++
		}
		s.loaded, next = 0, 0
	}
	s.collecting = next
}

func (am armModel) check(s *armState) error {
	if s.cleanups > 1 {
		return errors.New("two cleanups armed at once")
	}
	return nil
}

// final: once every Block and collection is over, a count in recent or
// previous has a cleanup armed to see it.
func (am armModel) final(s *armState) error {
	if (s.recent > 0 || s.previous > 0) && s.cleanups == 0 {
		return fmt.Errorf("recent %d, previous %d, and no collection will see them", s.recent, s.previous)
	}
	return nil
}

func exploreArm(rules armRules) (int, error) {
	return exploreModel[*armState](armModel{rules}, &armState{collections: 4})
}

// TestArmedExplored checks crew.armed's protocol in every order of its
// steps: two Blocks, up to four collections.
func TestArmedExplored(t *testing.T) {
	states, err := exploreArm(armRules{raiseFirst: true, disarmFirst: true})
	require.NoError(t, err)
	t.Logf("%d states", states)
}

// TestArmedBugs checks that the exploration finds each order swapped.
func TestArmedBugs(t *testing.T) {
	requireFound(t, []wrongRule[armRules]{
		{"load armed before the raise", armRules{raiseFirst: false, disarmFirst: true}, "no collection will see them"},
		{"load recent before disarming", armRules{raiseFirst: true, disarmFirst: false}, "no collection will see them"},
	}, func(rules armRules) error {
		_, err := exploreArm(rules)
		return err
	})
}
