package par_test

import (
	"context"
	"testing"

	"go.uber.org/goleak"

	"github.com/worksteal/wsq/sched"
)

// ctx is the context of the tests' runs.
var ctx = context.Background()

// TestMain checks that the tests leave no goroutine behind but the
// default pool's, which a program never closes.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/worksteal/wsq/sched.(*crew).serve"))
}

// double is a task function that doubles its argument.
func double(_ *sched.Task, x int) int { return 2 * x }
