package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/worksteal/wsq/examples/internal/cmdtest"
	"github.com/worksteal/wsq/sched"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestRenderParallel renders small images with one worker and several,
// with and without a grain, and compares them with the serial rendering.
func TestRenderParallel(t *testing.T) {
	for _, c := range []config{
		{width: 1, height: 1, iter: 10, workers: 1},
		{width: 200, height: 150, iter: 300, workers: 1},
		{width: 200, height: 150, iter: 300, workers: 3},
		{width: 97, height: 211, iter: 100, workers: 4, grain: 16},
	} {
		im, want := newFrame(c), newFrame(c)
		want.rows(0, c.height)
		res, err := renderParallel(context.Background(), c, im, nil)
		require.NoError(t, err)
		require.Equal(t, -1, firstDifference(im.counts, want.counts), "%+v", c)
		assert.Equal(t, want.total(0, c.height), res.total, "%+v", c)
	}
}

// TestEscape checks escape at points whose answer is known.
func TestEscape(t *testing.T) {
	assert.Equal(t, uint32(50), escape(0, 0, 50), "the origin is in the set")
	assert.Equal(t, uint32(50), escape(-1, 0, 50), "-1 is in the set")
	assert.Equal(t, uint32(1), escape(2, 2, 50), "|c| > 2 escapes after one step")
}

// TestCommand builds the command and runs it as a user would: with each
// option, and with each kind of bad flag (those of the flags all programs
// share come from cmdtest.Shared).
func TestCommand(t *testing.T) {
	png := filepath.Join(t.TempDir(), "m.png")
	cmdtest.Command(t, "mandelbrot", synopsis, []cmdtest.Case{
		cmdtest.Verified("verified: the parallel image equals the serial one, all 30,000 pixels", "-width", "200", "-height", "150", "-iter", "200"),
		cmdtest.Verified("mandelbrot: 64×48 pixels, at most 50 iterations each, 3 workers", "-width", "64", "-height", "48", "-iter", "50", "-workers", "3", "-grain", "4"),
		cmdtest.Verified("all 1 pixel", "-width", "1", "-height", "1", "-progress=false"),
		cmdtest.Verified("wrote "+png, "-width", "40", "-height", "30", "-out", png),
		cmdtest.Refused("mandelbrot: -width 0: out of range; want 1 to 16,384", "-width", "0"),
		cmdtest.Refused("mandelbrot: -iter 0: out of range", "-iter", "0"),
		cmdtest.Refused("mandelbrot: -workers 5: more than the 4 rows of the image; a worker needs work to do", "-height", "4", "-workers", "5"),
		cmdtest.Refused("mandelbrot: -grain -1: out of range", "-grain", "-1"),
	})
}

// TestParallelLine checks the summary line, and that no ratio is printed
// where a time was too short to measure.
func TestParallelLine(t *testing.T) {
	res := result{elapsed: 2500 * time.Microsecond, stats: sched.Stats{WorkerStats: sched.WorkerStats{Processed: 9, Steals: 2}}}
	assert.Equal(t, "parallel loops: 2.5ms (2.00x serial), 9 tasks, 2 steals", parallelLine(5*time.Millisecond, res))
	assert.Equal(t, "parallel loops: 2.5ms (serial too short to compare), 9 tasks, 2 steals", parallelLine(0, res))
}
