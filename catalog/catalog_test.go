package catalog_test

import (
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
