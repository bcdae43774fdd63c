package testenv

import (
	"testing"
	"time"
)

// Eventually polls cond until it holds, and fails the test if it does not
// within a minute: the deadline only turns a hang into a failure, and no
// test relies on how soon cond holds. what names the condition.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not reached", what)
		}
		time.Sleep(time.Millisecond)
	}
}
