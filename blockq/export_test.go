package blockq

import (
	"errors"
	"fmt"
)

// CheckInvariants checks the structure of a queue no goroutine is using:
// the front's word is live, every link after the front is unborn, and the
// owner's newest position, back and fill, lies exactly size items past the
// oldest unreserved one.
func (q *Queue[T]) CheckInvariants() error {
	f := q.front.Load()
	if f == nil {
		if q.own.back != nil {
			return errors.New("no front, but a back link")
		}
		return nil
	}
	c := f.ctl.Load()
	if c&stateMask != stateLive {
		return fmt.Errorf("front word %#x is not live", c)
	}
	if f.fwd.Load() != nil {
		return errors.New("the front has a successor front")
	}
	// Positions from f's first slot to the owner's newest item.
	pos := 0
	found := false
	for l := f; l != nil; l = l.next.Load() {
		if l != f && l.ctl.Load() != 0 {
			return errors.New("a link after the front is not unborn")
		}
		if l == q.own.back {
			pos += q.own.fill
			found = true
			if q.own.limit != spanOf(l) {
				return fmt.Errorf("the owner's limit %d is not its back link's span %d", q.own.limit, spanOf(l))
			}
			if q.own.cap != len(l.slots) {
				return errors.New("the owner's cap is not its back link's size")
			}
			break
		}
		pos += spanOf(l)
	}
	if !found {
		return errors.New("the owner's back link is not after the front")
	}
	if want := ctlIdx(c) + ctlSize(c); pos != want {
		return fmt.Errorf("the owner's newest position is %d; the front word says %d+%d", pos, ctlIdx(c), ctlSize(c))
	}
	spares := 0
	for l := q.own.back.next.Load(); l != nil; l = l.next.Load() {
		spares++
	}
	if spares != q.own.spares {
		return fmt.Errorf("%d empty links after the back; the owner counts %d", spares, q.own.spares)
	}
	return nil
}
