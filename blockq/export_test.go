package blockq

import (
	"errors"
	"fmt"
)

// CheckInvariants checks the structure of a queue no goroutine is using:
// the front's word is live and its pop count is the owner's; the published
// tail is the owner's tail word; the owner's newest position, back and
// fill, lies exactly where the tail says, at least the oldest unreserved
// position and at most MaxLen after it; the owner's view of the front is
// at most stale, never ahead; and the fast paths' bounds are those the
// owner's view gives.
func (q *Queue[T]) CheckInvariants() error {
	f := q.front.Load()
	o := &q.own
	if f == nil {
		if o.back != nil || o.f != nil {
			return errors.New("no front, but an owner's back link or front")
		}
		return nil
	}
	c := f.ctl.Load()
	if !isLive(c) {
		return fmt.Errorf("front word %#x is not live", c)
	}
	// The published tail lags the owner's published tail word only by the
	// pops made since it was published; the owner holds only items of its
	// back link, after the published ones.
	if o.pfill < 0 || o.pfill > o.fill {
		return fmt.Errorf("the owner has %d published positions of %d in use in its back link", o.pfill, o.fill)
	}
	otw, opw := o.tail(), o.published()
	if tw := q.tail.Load(); (tw>>posShift-(opw-tw)&genMask)&posMask != opw>>posShift {
		return fmt.Errorf("published tail %#x is not the owner's published tail word %#x before its pops since", tw, opw)
	}
	if ctlGen(o.c) != ctlGen(c) {
		return fmt.Errorf("the owner's view has pop count %d, not %d", ctlGen(o.c), ctlGen(c))
	}
	// Positions from f's link's first slot to the owner's newest item.
	pos := 0
	found := false
	if f.fwd.Load() != nil {
		return errors.New("the front has a successor")
	}
	for l := f.l; l != nil; l = l.next.Load() {
		if l != f.l && l.first.ctl.Load() != 0 {
			return errors.New("a link after the front link has been the front")
		}
		if l == o.back {
			pos += o.fill
			found = true
			if o.limit != spanOf(l) {
				return fmt.Errorf("the owner's limit %d is not its back link's span %d", o.limit, spanOf(l))
			}
			if o.cap != len(l.slots) {
				return errors.New("the owner's cap is not its back link's size")
			}
			break
		}
		pos += spanOf(l)
	}
	if !found {
		return errors.New("the owner's back link is not after the front link")
	}
	if want := (otw>>posShift - f.base.Load()) & posMask; uint64(pos) != want {
		return fmt.Errorf("the owner's newest position is %d after the front link's first slot; the tail says %d", pos, want)
	}
	n := f.length(c, otw)
	if n > MaxLen || pos-ctlIdx(c) != int(n) {
		return fmt.Errorf("the queue's length is %d: newest position %d, oldest %d", n, pos, ctlIdx(c))
	}
	if pub := f.length(c, opw); pub+uint64(o.held()) != n {
		return fmt.Errorf("%d items published and %d held, but the queue holds %d", pub, o.held(), n)
	}
	if own := o.length(); own < int(n) {
		return fmt.Errorf("the owner sees %d items, fewer than the %d there are", own, n)
	}
	stop, floor := o.stop, o.floor
	o.bounds()
	if stop != o.stop || floor != o.floor {
		return fmt.Errorf("the owner's bounds are stop %d, floor %d; its view gives %d, %d", stop, floor, o.stop, o.floor)
	}
	spares := 0
	for l := o.back.next.Load(); l != nil; l = l.next.Load() {
		spares++
	}
	if spares != o.spares {
		return fmt.Errorf("%d empty links after the back; the owner counts %d", spares, o.spares)
	}
	return nil
}

// OwnerLen returns the number of items as the owner sees them: the
// published ones thieves have not reserved, as Len counts them, and the held
// ones. Only the owner may call it.
func (q *Queue[T]) OwnerLen() int { return q.Len() + q.own.held() }

// Held returns the number of items the owner holds.
func (q *Queue[T]) Held() int { return q.own.held() }

// NewAt returns an empty queue whose positions start at pos and whose pop
// count starts at gen, as if that many positions had been consumed and that
// many pops made (modulo their ranges), so that tests reach the wrap of
// both counters in a few operations.
func NewAt[T any](pos, gen uint64, opts ...Option) *Queue[T] {
	q := New[T](opts...)
	q.own.base, q.own.c = pos&posMask, gen&genMask
	q.tail.Store(q.own.tail())
	return q
}

// Counters returns the owner's position after the newest item and its pop
// count.
func (q *Queue[T]) Counters() (pos, gen uint64) { return q.own.tail() >> posShift, ctlGen(q.own.c) }

// The ranges of the counters.
const (
	PosRange = posMask + 1
	GenRange = genMask + 1
)

// jumpGen advances the pop count of a queue no thief is using (stalled
// thieves may hold what they loaded) by n, as n pushes each followed by a
// pop of what it pushed would: the length and positions do not change, the
// tail is published as the last of those pushes published it, and where
// the count wraps the jump makes a real push and pop, so that the wrap
// takes the owner's own path. Popping 2^30 times takes about ten seconds,
// so the wrap tests jump over most of them.
func (q *Queue[T]) jumpGen(n uint64) {
	o := &q.own
	if o.held() > 0 {
		q.publish() // the jump's pushes publish what the owner holds
	}
	for n > 0 {
		q.reload()
		if ctlGen(o.c) == genMask {
			var zero T
			q.Push(zero)
			if _, ok := q.Pop(); !ok {
				panic("jumpGen: the pop found nothing")
			}
			n--
			continue
		}
		step := min(n, genMask-ctlGen(o.c))
		o.c += step
		o.f.ctl.Store(o.c)
		q.tail.Store(o.tail() + 1<<posShift - 1) // the last push's publication
		o.bounds()
		n -= step
	}
}
