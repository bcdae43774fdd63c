//go:build unix

package pools

import (
	"syscall"
	"time"
)

// cpuTime returns the processor time the process has used so far, user
// and system: a measure of work that other jobs on the machine do not
// stretch, as they stretch wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
