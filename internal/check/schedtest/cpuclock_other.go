//go:build !linux

package schedtest

import "time"

var start = time.Now()

// cpuNow returns the wall clock's time since the tests began: elsewhere
// than on Linux, the measured runs read the wall clock.
func cpuNow() time.Duration { return time.Since(start) }
