//go:build !unix

package pools

import "time"

// cpuTime returns zero: the processor time is read on Unix only.
func cpuTime() time.Duration { return 0 }
