package queuetest_test

import (
	"go.uber.org/goleak"
	"testing"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/queuetest"
	"github.com/worksteal/wsq/mutexq"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The suite checks itself on mutexq, the baseline: a slice behind a lock.
func mutexConfig(capacity int) queuetest.Config {
	return queuetest.Config{
		New:     func() wsq.Queue[int] { return newMutex[int](capacity) },
		NewWide: func() wsq.Queue[queuetest.Wide] { return newMutex[queuetest.Wide](capacity) },
		NewPtr:  func() wsq.Queue[*queuetest.Payload] { return newMutex[*queuetest.Payload](capacity) },
	}
}

// newMutex returns a mutexq queue of the given capacity, 0 for unbounded.
func newMutex[T any](capacity int) *mutexq.Queue[T] {
	if capacity == 0 {
		return mutexq.New[T]()
	}
	return mutexq.NewBounded[T](capacity)
}

func TestMutexQueue(t *testing.T)        { queuetest.Run(t, mutexConfig(0)) }
func TestMutexQueueBounded(t *testing.T) { queuetest.Run(t, mutexConfig(100)) }
func FuzzMutexQueue(f *testing.F)        { queuetest.Fuzz(f, mutexConfig(0)) }
