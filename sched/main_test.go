package sched_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/worksteal/wsq/sched"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(closingDefault{m}) }

// closingDefault runs the tests and then closes the default pool, which a
// program never closes, so that goleak finds none of its goroutines.
type closingDefault struct{ *testing.M }

func (m closingDefault) Run() int {
	code := m.M.Run()
	sched.CloseDefault()
	return code
}
