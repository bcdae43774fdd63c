// Package schedstats holds what package sched counts for the module's
// benchmarks and examples, but does not export: the steals that took
// nothing, the parcels, the idle spells and the masters' time.
package schedstats

import "time"

// Detail is the part of a sched.Stats that only the module reads.
type Detail struct {
	// EmptySteals counts steals from a queue that looked non-empty, by
	// its Len, but was empty when the steal took effect (wsq.Empty).
	EmptySteals int64
	// ContendedSteals counts steals that met another goroutine at the
	// victim and took nothing (wsq.Contended).
	ContendedSteals int64
	// Parcels counts the steals handed over as a wsq.Parcel, without
	// copying (Master mode, queues that implement wsq.Handoff).
	Parcels int64
	// Idles counts the times a worker ran out of work.
	Idles int64
	// MasterBusy is the time the masters spent serving idle workers, and
	// MasterWait the time from a worker's running out of work to its
	// hand-off, summed over hand-offs. Both are zero in Random mode.
	MasterBusy, MasterWait time.Duration
	// Compensations counts the helping waits that found nothing they may
	// run and lent their worker meanwhile (Pool only). Each is a
	// goroutine that sched.Stats.PeakBlocked may count.
	Compensations int64
}

// of reads the Detail of a sched.Stats; package sched sets it.
var of func(stats any) Detail

// Register sets the function that Of calls. Package sched calls it when it
// is initialized: this package cannot import sched, which imports it.
func Register(f func(stats any) Detail) { of = f }

// Of returns the Detail of stats, a sched.Stats.
func Of(stats any) Detail { return of(stats) }
