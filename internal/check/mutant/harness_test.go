package mutant

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRunPattern(t *testing.T) {
	assert.Equal(t, "^TestInterleave$/^basic$/^one-item$/^Steal$", RunPattern("TestInterleave", "basic", "one-item/Steal"))
	assert.Equal(t, `^a\.b$/^c\+$`, RunPattern("a.b", "c+"))
}

func TestViolationAndFailureLine(t *testing.T) {
	out := "=== RUN   TestX\n    x_test.go:1: violation: exactly-once: item 1 removed twice\n    violation: later\n--- FAIL: TestX\n"
	assert.Equal(t, "exactly-once: item 1 removed twice", Violation(out))
	assert.Equal(t, "", Violation("PASS\n"))

	assert.Equal(t, "panic: boom", FailureLine("ok\n  panic: boom\n\tError: later\n"))
	assert.Equal(t, "thief 2 received 7, never pushed", FailureLine("x\nthief 2 received 7, never pushed\n"))
	assert.Equal(t, "(no failure line)", FailureLine("PASS\n"))
}
