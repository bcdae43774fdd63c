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

// A model of tokens: goroutines that acquire a token and release it, a
// few times each, in every order of the atomic adds, the sends on passed
// and the receives from it. No more than max hold tokens at once, a
// release never finds passed full, and no acquire waits for ever.

// tokState is the model's state: the semaphore's count, the tokens held
// and in passed, and where each goroutine stands.
type tokState struct {
	n, held, inPassed int
	gs                [3]tokG
}

// tokG is a goroutine of the model: rounds is the acquires it has left;
// a release that must pass its token on still has to send it.
type tokG struct {
	rounds int
	phase  tokPhase
}

type tokPhase uint8

const (
	tokIdle    tokPhase = iota // before an acquire, or after a release
	tokWaiting                 // found none: waits on passed
	tokHolding                 // holds a token
	tokSending                 // released it: passes it on through passed
)

func (s *tokState) key() string      { return fmt.Sprint(*s) }
func (s *tokState) clone() *tokState { c := *s; return &c }

// tokRules are the two comparisons: an acquire holds a token if the new
// count is at most max+acquire, and a release passes its token on if the
// new count is at least max+release. Both are zero in tokens.
type tokRules struct{ acquire, release int }

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
				if s.n <= tm.max+tm.rules.acquire {
					s.held++
					g.phase = tokHolding
				} else {
					g.phase = tokWaiting
				}
			}
		case g.phase == tokWaiting && s.inPassed > 0:
			mv = func(s *tokState) {
				s.inPassed--
				s.held++
				s.gs[i].phase = tokHolding
			}
		case g.phase == tokHolding:
			mv = func(s *tokState) {
				s.n--
				s.held--
				s.gs[i].phase = tokIdle
				if s.n >= tm.max+tm.rules.release {
					s.gs[i].phase = tokSending
				}
			}
		case g.phase == tokSending:
			mv = func(s *tokState) {
				s.inPassed++
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
	if s.inPassed > tm.max {
		return errors.New("a release finds passed full")
	}
	return nil
}

// final: with no move left, every goroutine is done and no token is left
// in passed for an acquire that will not come.
func (tm tokModel) final(s *tokState) error {
	for _, g := range s.gs {
		if g.phase == tokWaiting {
			return errors.New("an acquire waits for ever")
		}
	}
	if s.inPassed != 0 || s.n != 0 {
		return fmt.Errorf("count %d and %d tokens in passed with every goroutine done", s.n, s.inPassed)
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
// three goroutines acquire and release twice each, with one and two
// tokens.
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
		{"acquire holds only below max", tokRules{acquire: -1}, "waits for ever"},
		{"acquire holds at max+1", tokRules{acquire: 1}, "more than"},
		{"release passes on only above max", tokRules{release: 1}, "waits for ever"},
		{"release passes on at max-1", tokRules{release: -1}, "passed full"},
	}, func(rules tokRules) error {
		_, err := exploreTokens(1, rules)
		return err
	})
}

// TestTokensPassOn: an acquire beyond max waits, and the next release
// passes it the token.
func TestTokensPassOn(t *testing.T) {
	s := newTokens(2)
	require.True(t, s.tryAcquire())
	require.True(t, s.tryAcquire())
	acquired := make(chan struct{})
	go func() {
		if !s.tryAcquire() {
			s.wait()
		}
		close(acquired)
	}()
	testenv.Eventually(t, "the third acquire counts itself", func() bool { return s.n.Load() == 3 })
	select {
	case <-acquired:
		t.Fatal("a third acquire returned while two held tokens")
	default:
	}
	s.release()
	<-acquired
	require.Equal(t, int64(2), s.n.Load())
	s.release()
	s.release()
	require.Zero(t, s.n.Load())
	require.Zero(t, len(s.passed))
}

// TestTokensLimit runs the semaphore itself: many goroutines acquire and
// release tokens; no more than max hold one at once, and every acquire
// returns.
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
					if !s.tryAcquire() {
						waited.Add(1)
						s.wait()
					}
					h := holding.Add(1)
					for p := peak.Load(); h > p && !peak.CompareAndSwap(p, h); p = peak.Load() {
					}
					runtime.Gosched() // the others acquire meanwhile, and wait
					holding.Add(-1)
					s.release()
				}
			}()
		}
		wg.Wait()
		require.LessOrEqual(t, peak.Load(), int64(max), "max %d", max)
		require.Zero(t, s.n.Load(), "max %d: count after every release", max)
		require.Zero(t, len(s.passed), "max %d: tokens left in passed", max)
		t.Logf("max %d: peak %d, %d acquires waited", max, peak.Load(), waited.Load())
	}
}
