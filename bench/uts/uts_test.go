package uts_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/bench/uts"
)

// TestTreeSizes counts every tree by a serial search and compares the
// count with its size. T1's and T3's are the sizes the reference
// implementation prints, so the two agreeing checks the digests, the
// draws and the shapes against it. -short leaves out the large trees.
func TestTreeSizes(t *testing.T) {
	for _, tr := range uts.Trees {
		if tr.Nodes > 1_000_000 && testing.Short() {
			continue
		}
		t.Run(tr.Name, func(t *testing.T) {
			assert.Equal(t, tr.Nodes, tr.Count(tr.Root()))
		})
	}
}

// TestShapes checks the rules of each kind on the first levels of T1 and
// T3: T3's root has B0 children and every other node M or none; T1's
// nodes at Depth have none.
func TestShapes(t *testing.T) {
	r := uts.T3.Root()
	require.Equal(t, int(uts.T3.B0), uts.T3.Children(r))
	seen := map[int]int{}
	for i := range uts.T3.Children(r) {
		seen[uts.T3.Children(r.Child(i))]++
	}
	assert.Len(t, seen, 2, "a T3 node has M children or none: %v", seen)
	assert.Contains(t, seen, 0)
	assert.Contains(t, seen, uts.T3.M)

	n := uts.T1.Root()
	for n.Depth < int32(uts.T1.Depth) {
		k := uts.T1.Children(n)
		if k == 0 {
			break
		}
		n = n.Child(k - 1)
	}
	for i := range 100 {
		leaf := n
		for leaf.Depth < int32(uts.T1.Depth) {
			leaf = leaf.Child(i)
		}
		assert.Zero(t, uts.T1.Children(leaf), "a node at depth %d", leaf.Depth)
	}
}

func TestByName(t *testing.T) {
	tr, err := uts.ByName("T3")
	require.NoError(t, err)
	assert.Equal(t, uts.T3, tr)
	_, err = uts.ByName("T9")
	assert.EqualError(t, err, `uts: no tree named "T9"`)
}
