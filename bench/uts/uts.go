// Package uts generates the trees of the Unbalanced Tree Search benchmark
// (Olivier, Huan, Liu, Prins, Dinan, Sadayappan and Tseng, "UTS: An
// Unbalanced Tree Search Benchmark", LCPC 2006), the standard test of a
// work-stealing scheduler on work it cannot predict.
//
// A tree takes no memory. Each node is a 20-byte SHA-1 digest and its
// depth. A child's digest is the SHA-1 of its parent's digest followed by
// the child's index, and a node's number of children is drawn from its
// digest. So a tree is fixed by its parameters, a search visits every node
// exactly once, and its count of nodes checks it.
//
// Two shapes of the reference implementation are here:
//
//	kind       a node's children                          the trees
//	Geometric  a geometric draw of mean B0, none at Depth  T1, T1S
//	Binomial   the root B0; others M with probability Q     T3, T3S
//
// T1 and T3 are the trees of the reference's sample runs, of about four
// million nodes each, with the sizes it prints. T1S and T3S are smaller
// trees of the same shapes, for quick runs.
//
// The package is a workload for the benchmarks of package bench. It is
// not part of the library.
package uts

import (
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"math"
)

// Kind is a tree's shape.
type Kind int

const (
	// Geometric trees give every node above Depth a number of children
	// drawn from a geometric distribution of mean B0 (the reference's
	// GEO type with its fixed shape function).
	Geometric Kind = iota
	// Binomial trees give the root B0 children, and every other node M
	// children with probability Q, or none (the reference's BIN type).
	Binomial
)

// maxChildren caps a node's children, as the reference does, except at the
// root of a Binomial tree.
const maxChildren = 100

// Tree is a tree's parameters, the reference's command-line flags.
type Tree struct {
	Name  string
	Kind  Kind
	Seed  int32   // -r: the root's seed
	B0    float64 // -b: the root's branching factor (Geometric: every node's mean)
	Depth int     // -d: Geometric: the depth whose nodes have no children
	Q     float64 // -q: Binomial: the probability that a node has children
	M     int     // -m: Binomial: the children of a node that has any
	Nodes int64   // the tree's size, as the reference counts it
}

// The trees. T1 and T3 are the reference's samples (-t 1 -a 3 -d 10 -b 4
// -r 19, and -t 0 -b 2000 -q 0.124875 -m 8 -r 42), of 4,130,071 and
// 4,112,897 nodes; T3 is deep and narrow, the harder to balance. T1S (-d
// 8) and T3S (-b 1000 -r 18) have the same shapes and a sixteenth and a
// fifteenth of the nodes.
var (
	T1  = Tree{Name: "T1", Kind: Geometric, Seed: 19, B0: 4, Depth: 10, Nodes: 4_130_071}
	T3  = Tree{Name: "T3", Kind: Binomial, Seed: 42, B0: 2000, Q: 0.124875, M: 8, Nodes: 4_112_897}
	T1S = Tree{Name: "T1S", Kind: Geometric, Seed: 19, B0: 4, Depth: 8, Nodes: 257_042}
	T3S = Tree{Name: "T3S", Kind: Binomial, Seed: 18, B0: 1000, Q: 0.124875, M: 8, Nodes: 278_553}
)

// Trees lists the trees by name.
var Trees = []Tree{T1S, T3S, T1, T3}

// ByName returns the tree of Trees named name.
func ByName(name string) (Tree, error) {
	for _, t := range Trees {
		if t.Name == name {
			return t, nil
		}
	}
	return Tree{}, fmt.Errorf("uts: no tree named %q", name)
}

// Node is a node of a tree: its digest and its depth, the root's 0. The
// digest's 20 bytes are held as integers, big-endian, which Go passes in
// registers; an array would go through memory at every call.
type Node struct {
	d0, d1 uint64 // bytes 0-7 and 8-15 of the digest
	d2     uint32 // bytes 16-19
	Depth  int32
}

// nodeOf returns the node of digest d at depth.
func nodeOf(d [sha1.Size]byte, depth int32) Node {
	return Node{
		d0:    binary.BigEndian.Uint64(d[0:]),
		d1:    binary.BigEndian.Uint64(d[8:]),
		d2:    binary.BigEndian.Uint32(d[16:]),
		Depth: depth,
	}
}

// Root returns the tree's root.
func (t Tree) Root() Node {
	var seed [sha1.Size]byte
	binary.BigEndian.PutUint32(seed[16:], uint32(t.Seed))
	return nodeOf(sha1.Sum(seed[:]), 0)
}

// Child returns the i-th child of n.
func (n Node) Child(i int) Node {
	var b [sha1.Size + 4]byte
	binary.BigEndian.PutUint64(b[0:], n.d0)
	binary.BigEndian.PutUint64(b[8:], n.d1)
	binary.BigEndian.PutUint32(b[16:], n.d2)
	binary.BigEndian.PutUint32(b[sha1.Size:], uint32(i))
	return nodeOf(sha1.Sum(b[:]), n.Depth+1)
}

// draw returns n's random number, uniform on [0, 1): the last four bytes
// of its digest, as a 31-bit integer.
func (n Node) draw() float64 {
	return float64(n.d2&0x7fffffff) / (1 << 31)
}

// Children returns how many children n has in t.
func (t Tree) Children(n Node) int {
	switch t.Kind {
	case Binomial:
		if n.Depth == 0 {
			return int(math.Floor(t.B0))
		}
		if n.draw() < t.Q {
			return t.M
		}
		return 0
	default:
		b := t.B0
		if n.Depth >= int32(t.Depth) && n.Depth > 0 {
			b = 0
		}
		// The inverse of the geometric distribution's cumulative
		// function, whose mean is b for p = 1/(1+b).
		p := 1 / (1 + b)
		k := int(math.Floor(math.Log(1-n.draw()) / math.Log(1-p)))
		return min(k, maxChildren)
	}
}

// Count returns the number of nodes in n's subtree, n included, searched
// depth first by one goroutine.
func (t Tree) Count(n Node) int64 {
	c := int64(1)
	for i := range t.Children(n) {
		c += t.Count(n.Child(i))
	}
	return c
}
