package lfqueue

import (
	"iter"

	wsq "github.com/worksteal/wsq"
)

// List is a linked run of items outside any queue: a batch an owner builds
// with Append and pushes with Queue.PushList in constant time, or the part
// of a queue a thief took with Queue.StealParcel, ready to be pushed into
// another queue whole with PushParcel or PushList.
//
// A List belongs to one goroutine at a time; hand it to another with a
// channel or another synchronizing operation. The zero value is an empty
// list ready to use. A List is a handle to its nodes: do not copy a
// non-empty List, move it with PushList, or pass a pointer.
type List[T any] struct {
	top    *node[T] // newest node; its chain runs down to bottom
	bottom *node[T] // oldest node; its next is nil
	n      int
	spare  []node[T]   // nodes allocated for future Appends
	more   [][]node[T] // further blocks allocated by Grow
	chunk  int         // size of the last block Append allocated, 0 if none
}

var _ wsq.Parcel[int] = (*List[int])(nil)

// Nodes are allocated in blocks of at most maxChunk nodes: by PushBatch,
// by Grow, and by Append, whose blocks double from minChunk to maxChunk
// nodes, so that the nodes it allocates are at most about twice those it
// appended (and at most maxChunk more), however many items the list
// already holds (a stolen sub-list may hold millions). The bound on a
// block is what lets a steal release the nodes it took by clearing at
// most maxChunk links (see appendChain). Its size weighs two costs: each
// link a copying steal clears is a write barrier while the collector marks,
// and a steal that walks the nodes that stay (the basic and skip-count
// steals) walks more slowly through many small blocks than through few
// large ones.
const (
	minChunk = 16
	maxChunk = 4096
)

// Len returns the number of items in the list.
func (l *List[T]) Len() int { return l.n }

// Grow makes room for n more Appends without further allocation: it
// allocates their nodes, in blocks of at most 4096, unless the list already
// has room.
func (l *List[T]) Grow(n int) {
	room := len(l.spare)
	for _, b := range l.more {
		room += len(b)
	}
	for room < n {
		b := make([]node[T], min(n-room, maxChunk))
		if len(l.spare) == 0 {
			l.spare = b
		} else {
			l.more = append(l.more, b)
		}
		room += len(b)
	}
}

// Append adds v as the newest item of the list. Unless Grow made room, it
// allocates nodes in blocks whose size grows with the number of Appends
// (not with the items the list holds): 16 nodes, then twice the previous
// block, up to 4096.
func (l *List[T]) Append(v T) {
	if len(l.spare) == 0 {
		if len(l.more) > 0 {
			l.spare, l.more = l.more[0], l.more[1:]
		} else {
			l.chunk = min(max(minChunk, 2*l.chunk), maxChunk)
			l.spare = make([]node[T], l.chunk)
		}
	}
	nd := &l.spare[0]
	l.spare = l.spare[1:]
	nd.val = v
	nd.next.SetPlain(l.top)
	l.top = nd
	if l.bottom == nil {
		l.bottom = nd
	}
	l.n++
}

// Pop removes and returns the newest item of the list.
func (l *List[T]) Pop() (T, bool) {
	var zero T
	if l.n == 0 {
		return zero, false
	}
	nd := l.top
	v := nd.val
	nd.val = zero
	l.top = nd.next.Plain()
	nd.next.SetPlain(nil)
	l.n--
	if l.n == 0 {
		l.top, l.bottom = nil, nil
	}
	return v, true
}

// Drain empties the list: it appends the items of the list to dst, oldest
// first, leaves the list empty and returns the extended slice.
func (l *List[T]) Drain(dst []T) []T {
	dst = appendChain(dst, l.top, l.n)
	l.top, l.bottom, l.n = nil, nil, 0
	return dst
}

// Backward returns an iterator over the items of the list from the newest
// to the oldest, the order of its links; it leaves the list unchanged.
func (l *List[T]) Backward() iter.Seq[T] {
	return func(yield func(T) bool) {
		for nd, i := l.top, 0; i < l.n; nd, i = nd.next.Plain(), i+1 {
			if !yield(nd.val) {
				return
			}
		}
	}
}

// appendChain appends the values of the k nodes of the chain that starts at
// top (the newest) to dst, oldest first, and returns the extended slice. It
// clears the values of the nodes and the links of the newest maxChunk of
// them. A node shares its block with others, so a removed node whose
// neighbour is still queued stays in memory, and its link must not keep
// the older nodes it points to in memory as well. Only the block of top
// can hold such a neighbour (a queue's nodes above a cut, or a list's), and
// its taken nodes are the newest of the chain, at most maxChunk of them;
// the blocks below are taken whole. Clearing only those keeps the cost of
// a long steal's clearing bounded: each cleared link is a pointer store,
// which the collector's write barrier makes several times dearer while it
// marks. The caller owns the nodes.
func appendChain[T any](dst []T, top *node[T], k int) []T {
	base := len(dst)
	dst = append(dst, make([]T, k)...)
	var zero T
	nd := top
	for i := base + k - 1; i >= base; i-- {
		dst[i] = nd.val
		nd.val = zero
		nx := nd.next.Plain()
		if base+k-1-i < maxChunk {
			nd.next.SetPlain(nil)
		}
		nd = nx
	}
	return dst
}
