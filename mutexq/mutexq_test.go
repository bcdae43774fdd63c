package mutexq_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/mutexq"
)

// The conformance suite runs on this package from internal/queuetest, where
// it also checks the suite itself; here only the constructors.
func TestConstructors(t *testing.T) {
	for _, c := range []int{0, -1} {
		assert.PanicsWithValue(t, "mutexq: capacity "+map[int]string{0: "0", -1: "-1"}[c]+" is not positive",
			func() { mutexq.NewBounded[int](c) })
	}
	assert.Equal(t, wsq.Contract{Capacity: 3, Locking: true}, mutexq.NewBounded[int](3).Contract())
	assert.Equal(t, wsq.Contract{Locking: true}, mutexq.New[int]().Contract())
}
