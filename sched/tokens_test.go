package sched

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/testenv"
)

// A model of tokens: goroutines that take a token and give it back, a
// few times each, in every order of the atomic adds, the sends on wake
// and the receives from it. No more than max hold tokens at once, a give
// never finds wake full, and no take waits for ever.

// tokState is the model's state: the semaphore's count, the tokens held
// and in wake, and where each goroutine stands.
type tokState struct {
	n, held, inWake int
	gs              [3]tokG
}

// tokG is a goroutine of the model: rounds is the takes it has left; a
// give that must hand its token on still has to send it.
type tokG struct {
	rounds int
	phase  tokPhase
}

type tokPhase uint8

const (
	tokIdle    tokPhase = iota // before a take, or after a give
	tokWaiting                 // took none: waits on wake
	tokHolding                 // holds a token
	tokSending                 // gave it back: hands it on through wake
)

func (s *tokState) key() string      { return fmt.Sprint(*s) }
func (s *tokState) clone() *tokState { c := *s; return &c }

// tokRules are the two comparisons: a take holds a token if the new
// count is at most max+take, and a give hands its token on if the new
// count is at least max+give. Both are zero in tokens.
type tokRules struct{ take, give int }

type tokModel struct {
	max   int
	rules tokRules
}

func (tm tokModel) moves(s *tokState) ([]modelMove[*tokState], error) {
	var ms []modelMove[*tokState]
	for i := range s.gs {
		g := s.gs[i]
		var mv func(s *tokState)
		switch {
		case g.phase == tokIdle && g.rounds > 0:
			mv = func(s *tokState) {
				g := &s.gs[i]
				g.rounds--
				s.n++
				if s.n <= tm.max+tm.rules.take {
					s.held++
					g.phase = tokHolding
				} else {
					g.phase = tokWaiting
				}
			}
		case g.phase == tokWaiting && s.inWake > 0:
			mv = func(s *tokState) {
				s.inWake--
				s.held++
				s.gs[i].phase = tokHolding
			}
		case g.phase == tokHolding:
			mv = func(s *tokState) {
				s.n--
				s.held--
				s.gs[i].phase = tokIdle
				if s.n >= tm.max+tm.rules.give {
					s.gs[i].phase = tokSending
				}
			}
		case g.phase == tokSending:
			mv = func(s *tokState) {
				s.inWake++
				s.gs[i].phase = tokIdle
			}
		}
		if mv != nil {
			ms = append(ms, modelMove[*tokState]{fmt.Sprintf("g%d.%d", i, g.phase), func(s *tokState) error {
				mv(s)
				return nil
			}})
		}
	}
	return ms, nil
}

func (tm tokModel) check(s *tokState) error {
	if s.held > tm.max {
		return fmt.Errorf("%d hold tokens, more than %d", s.held, tm.max)
	}
	if s.inWake > tm.max {
		return errors.New("a give finds wake full")
	}
	return nil
}

// final: with no move left, every goroutine is done and no token is left
// in wake for a take that will not come.
func (tm tokModel) final(s *tokState) error {
	for _, g := range s.gs {
		if g.phase == tokWaiting {
			return errors.New("a take waits for ever")
		}
	}
	if s.inWake != 0 || s.n != 0 {
		return fmt.Errorf("count %d and %d tokens in wake with every goroutine done", s.n, s.inWake)
	}
	return nil
}

func exploreTokens(max int, rules tokRules) (int, error) {
	start := &tokState{}
	for i := range start.gs {
		start.gs[i].rounds = 2
	}
	return exploreModel[*tokState](tokModel{max, rules}, start)
}

// TestTokensExplored checks tokens' rules in every order of their steps:
// three goroutines take and give twice each, with one and two tokens.
func TestTokensExplored(t *testing.T) {
	for _, max := range []int{1, 2} {
		states, err := exploreTokens(max, tokRules{})
		require.NoError(t, err)
		t.Logf("max %d: %d states", max, states)
	}
}

// TestTokensBugs checks that the exploration finds each comparison moved
// by one.
func TestTokensBugs(t *testing.T) {
	requireFound(t, []wrongRule[tokRules]{
		{"take holds only below max", tokRules{take: -1}, "waits for ever"},
		{"take holds at max+1", tokRules{take: 1}, "more than"},
		{"give hands on only above max", tokRules{give: 1}, "waits for ever"},
		{"give hands on at max-1", tokRules{give: -1}, "wake full"},
	}, func(rules tokRules) error {
		_, err := exploreTokens(1, rules)
		return err
	})
}

// TestTokensHandOn: a take beyond max waits, and the next give hands it
// the token.
func TestTokensHandOn(t *testing.T) {
	s := newTokens(2)
	require.True(t, s.take())
	require.True(t, s.take())
	took := make(chan struct{})
	go func() {
		if !s.take() {
			s.wait()
		}
		close(took)
	}()
	testenv.Eventually(t, "the third take counts itself", func() bool { return s.n.Load() == 3 })
	select {
	case <-took:
		t.Fatal("a third take returned while two held tokens")
	default:
	}
	s.give()
	<-took
	require.Equal(t, int64(2), s.n.Load())
	s.give()
	s.give()
	require.Zero(t, s.n.Load())
	require.Zero(t, len(s.wake))
}

// TestTokensLimit runs the semaphore itself: many goroutines take and give
// tokens; no more than max hold one at once, and every take returns.
func TestTokensLimit(t *testing.T) {
	for _, max := range []int{1, 3} {
		s := newTokens(max)
		var holding, peak, waited atomic.Int64
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 2000 {
					if !s.take() {
						waited.Add(1)
						s.wait()
					}
					h := holding.Add(1)
					for p := peak.Load(); h > p && !peak.CompareAndSwap(p, h); p = peak.Load() {
					}
					runtime.Gosched() // the others take meanwhile, and wait
					holding.Add(-1)
					s.give()
				}
			}()
		}
		wg.Wait()
		require.LessOrEqual(t, peak.Load(), int64(max), "max %d", max)
		require.Zero(t, s.n.Load(), "max %d: count after every give", max)
		require.Zero(t, len(s.wake), "max %d: tokens left in wake", max)
		t.Logf("max %d: peak %d, %d takes waited", max, peak.Load(), waited.Load())
	}
}
