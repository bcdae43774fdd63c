package catalog_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/catalog"
)

func TestCatalog(t *testing.T) {
	require.NotEmpty(t, catalog.Names())
	seen := map[string]bool{}
	for _, e := range catalog.Entries() {
		assert.False(t, seen[e.Name], "duplicate name %q", e.Name)
		seen[e.Name] = true
		assert.NotEmpty(t, e.Description)
		q, err := catalog.New[int](e.Name)
		require.NoError(t, err, e.Name)
		require.NotNil(t, q)
		assert.Equal(t, 0, q.Len(), e.Name)
		assert.True(t, q.Push(7), e.Name)
		v, ok := q.Pop()
		assert.True(t, ok, e.Name)
		assert.Equal(t, 7, v, e.Name)
		got, ok := catalog.Lookup(e.Name)
		assert.True(t, ok)
		assert.Equal(t, e, got)
	}
	_, err := catalog.New[int]("no-such-queue")
	assert.ErrorContains(t, err, `unknown queue "no-such-queue"`)
	assert.ErrorContains(t, err, "mutex")
}

// TestBoundedDescriptions checks that the description of every bounded
// queue states its capacity, and that of an unbounded one states none: a
// user who picks a queue by name learns there that Push may refuse items.
func TestBoundedDescriptions(t *testing.T) {
	bounded := 0
	for _, e := range catalog.Entries() {
		if e.Capacity == 0 {
			assert.NotContains(t, e.Description, "capacity", e.Name)
			continue
		}
		bounded++
		assert.True(t, strings.HasSuffix(e.Description, fmt.Sprintf(", capacity %d", e.Capacity)), "%s: %q", e.Name, e.Description)
		q, err := catalog.New[int](e.Name)
		require.NoError(t, err)
		for i := range e.Capacity {
			require.True(t, q.Push(i), "%s: push %d of %d", e.Name, i+1, e.Capacity)
		}
		assert.False(t, q.Push(e.Capacity), "%s: a push beyond the capacity in the description", e.Name)
	}
	assert.Positive(t, bounded, "the catalog offers bounded queues")
}
