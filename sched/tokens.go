package sched

import "sync/atomic"

// tokens is a counting semaphore: the limit on the Block functions that
// run at once (Config.MaxBlocked). While no Block waits, an acquire and
// a release are one atomic add each, and take no lock.
//
// n counts the holders and the waiters. An acquire adds one: it holds a
// token if the sum is at most max, and else waits for one on passed. A
// release subtracts one: if the sum is still at least max, an acquire
// counted itself as a waiter, and the release passes its token on
// through passed. The tokens held and those in passed are never more
// than max together, so a release never blocks on passed, whose capacity
// is max.
//
//	step                     n    held   in passed   waiting
//	acquire, new n <= max    +1   +1
//	acquire, new n > max     +1                      +1
//	release, new n >= max    -1   -1     +1
//	release, new n < max     -1   -1
//	a waiter receives             +1     -1          -1
//
// TestTokensExplored checks these rules in every order of their steps.
type tokens struct {
	n      atomic.Int64
	max    int64
	passed chan struct{}
}

func newTokens(max int) tokens {
	return tokens{max: int64(max), passed: make(chan struct{}, max)}
}

// tryAcquire takes a token if one is free, and reports whether it did.
// If it did not, the caller counts among the waiters, and must call wait.
func (s *tokens) tryAcquire() bool { return s.n.Add(1) <= s.max }

// wait returns with a token, after a tryAcquire that found none.
func (s *tokens) wait() { <-s.passed }

// release gives a token back: to a waiter, if there is one.
func (s *tokens) release() {
	if s.n.Add(-1) >= s.max {
		s.passed <- struct{}{}
	}
}
