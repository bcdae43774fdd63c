package sched

// newScheduler returns a scheduler of cfg's workers for h, with the load
// balancing of cfg.Mode. The engine's core (scheduler.go, worker.go)
// names neither mode: each mode builds on the core, and this file on
// both.
func newScheduler[T any](cfg Config[T], h host[T]) (*scheduler[T], error) {
	s, err := makeScheduler(cfg, h)
	if err != nil {
		return nil, err
	}
	if s.cfg.Mode == Master {
		s.mode, s.sleepers = newMasters(s)
	} else {
		s.mode, s.sleepers = newRandom(s)
	}
	for _, w := range s.workers {
		w.sleepers = s.sleepers
	}
	return s, nil
}
