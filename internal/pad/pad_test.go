package pad_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/worksteal/wsq/internal/pad"
)

func TestSize(t *testing.T) {
	switch runtime.GOARCH {
	case "amd64", "386":
		assert.EqualValues(t, 64, pad.Size)
	case "arm64":
		assert.EqualValues(t, 128, pad.Size)
	default:
		assert.GreaterOrEqual(t, pad.Size, uintptr(32))
	}
}
