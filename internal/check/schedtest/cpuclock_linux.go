package schedtest

import (
	"time"

	"golang.org/x/sys/unix"
)

// cpuNow returns the calling thread's CPU time, as the measured runs read
// it.
func cpuNow() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		panic("no thread CPU clock")
	}
	return time.Duration(ts.Nano())
}
