package queuecheck

import wsq "github.com/worksteal/wsq"

// The scenarios every queue runs, whatever its structure: each is built
// for one kind of steal, and PerSteal runs a family of them once per kind.
// A queue's own checks add the scenarios that meet its structure.

// StealKind is one of the steals a queue offers, for the scenarios run once
// per kind of steal.
type StealKind struct {
	Name string
	Op   func(p float64) Op // the steal of proportion p; Steal ignores p
}

// StealKinds returns the steals of every queue, Steal and StealBatch, and,
// if native is not empty, the queue's native bulk steal under that name.
func StealKinds(native string) []StealKind {
	ks := []StealKind{
		{"Steal", func(float64) Op { return Steal() }},
		{"StealBatch", StealBatch},
	}
	if native != "" {
		ks = append(ks, StealKind{native, StealNative})
	}
	return ks
}

// PerSteal returns the scenarios family returns for each of kinds in turn.
func PerSteal(kinds []StealKind, family func(k StealKind) []Scenario) []Scenario {
	var ss []Scenario
	for _, k := range kinds {
		ss = append(ss, family(k)...)
	}
	return ss
}

// OneItem is the last item: the owner pops it (and pops again) while the
// thief steals everything.
func OneItem(k StealKind) Scenario {
	return Scenario{
		Name: "one-item/" + k.Name, Prefill: 1, Bound: Unbounded,
		Owner:   []Op{Pop(), Pop()},
		Thieves: [][]Op{{k.Op(1)}},
	}
}

// PushPop: the owner pushes and pops around a steal of half.
func PushPop(k StealKind) Scenario {
	return Scenario{
		Name: "push-pop/" + k.Name, Prefill: 2, Bound: Unbounded,
		Owner:   []Op{Push(), Pop(), Pop()},
		Thieves: [][]Op{{k.Op(0.5)}},
	}
}

// DrainRefill: the owner pops both items of the queue and refills it with
// a PushBatch of refill items while the thief steals proportion p; with a
// refill of two, the size comes back to what the thief may have read (ABA
// on the size).
func DrainRefill(k StealKind, refill int, p float64) Scenario {
	return Scenario{
		Name: "drain-refill/" + k.Name, Prefill: 2, Bound: Unbounded,
		Owner:   []Op{Pop(), Pop(), PushBatch(refill)},
		Thieves: [][]Op{{k.Op(p)}},
	}
}

// PushList returns a Config.PushNative for a queue whose native batch push
// links a list built in advance: it appends the values to a new list of
// type L, oldest first, and hands it to push, which returns how many items
// the queue took.
func PushList[L any, PL interface {
	*L
	Append(int)
}](push func(q wsq.Queue[int], l PL) int) func(q wsq.Queue[int], vs []int) int {
	return func(q wsq.Queue[int], vs []int) int {
		var l L
		for _, v := range vs {
			PL(&l).Append(v)
		}
		return push(q, &l)
	}
}
