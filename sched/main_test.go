package sched_test

import (
	"fmt"
	"testing"

	"go.uber.org/goleak"

	"github.com/worksteal/wsq/sched"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(closingDefault{m}) }

// closingDefault runs the tests and then closes the default pool, which a
// program never closes, so that goleak finds none of its goroutines.
// Meanwhile it checks every move of every pool's goroutines against the
// crew's table, and every move of every run's workers against the park
// table (CheckTables): a move that no rule allows fails the run.
type closingDefault struct{ *testing.M }

func (m closingDefault) Run() int {
	stop := sched.CheckTables()
	code := m.M.Run()
	sched.CloseDefault()
	bad, crewTaken, parkTaken := stop()
	for _, b := range bad {
		fmt.Println("tables:", b)
		code = 1
	}
	if testing.Verbose() {
		for i, name := range sched.CrewRuleNames() {
			fmt.Printf("crew table: rule %q taken %d times\n", name, crewTaken[i])
		}
		for i, name := range sched.ParkRuleNames() {
			fmt.Printf("park table: rule %q taken %d times\n", name, parkTaken[i])
		}
	}
	return code
}
