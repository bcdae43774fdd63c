package sched

import "sync/atomic"

// tokens is a counting semaphore: the limit on the Block functions that
// run at once (Config.MaxBlocked). While no Block waits, a take and a
// give are one atomic add each. A channel of tokens took its lock for
// each, and the goroutines of many Blocks spun on that lock.
//
// n counts the holders and the waiters. A take adds one: it holds a
// token if the sum is at most max, and else waits for one on wake. A
// give subtracts one: if the sum is still at least max, some take
// counted itself as a waiter, and the give hands its token on through
// wake. The tokens held and those in wake are never more than max
// together, so a give never blocks on wake, whose capacity is max.
//
//	step                  n    held   in wake   waiting
//	take, new n <= max    +1   +1
//	take, new n > max     +1                    +1
//	give, new n >= max    -1   -1     +1
//	give, new n < max     -1   -1
//	a waiter receives          +1     -1        -1
//
// TestTokensExplored checks these rules in every order of their steps.
type tokens struct {
	n    atomic.Int64
	max  int64
	wake chan struct{}
}

func newTokens(max int) tokens {
	return tokens{max: int64(max), wake: make(chan struct{}, max)}
}

// take takes a token if one is free, and reports whether it did. If it
// did not, the caller counts among the waiters, and must call wait.
func (s *tokens) take() bool { return s.n.Add(1) <= s.max }

// wait returns with a token, after a take that found none.
func (s *tokens) wait() { <-s.wake }

// give gives a token back: to a waiter, if there is one.
func (s *tokens) give() {
	if s.n.Add(-1) >= s.max {
		s.wake <- struct{}{}
	}
}
