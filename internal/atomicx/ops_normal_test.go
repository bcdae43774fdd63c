//go:build !wsqcheck && !wsqchaos

package atomicx_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestOps runs every method of the normal build once.
func TestOps(t *testing.T) {
	for _, o := range ops() {
		assert.True(t, o.do(), o.name)
	}
}
