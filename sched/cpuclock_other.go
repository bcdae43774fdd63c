//go:build !linux

package sched

import "time"

// threadCPU reports false: only Linux has a thread's CPU clock here, and
// a measured run times its strands by the wall clock elsewhere.
func threadCPU() (time.Duration, bool) { return 0, false }
