// Package pools benchmarks the everyday Go worker pools (ants, pond,
// conc's pool), and the ordered parallel maps over an iterator (juniper's
// parallel.MapIterator, rill's OrderedMap), beside package sched on the
// same scenarios. It is a module of its own: rill needs a newer Go than
// the wsq module does, and the pools are no dependency of wsq's.
//
//	cd bench/pools && go test -run '^$' -bench . -count 6
package pools
