package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cli"
	"github.com/worksteal/wsq/examples/internal/cmdtest"
	"github.com/worksteal/wsq/sched"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// makeTree builds a tree of 1 + 4 + 16 + 64 = 85 directories under a new
// temporary directory, each with two files (i and 100+i bytes, for the
// directory's index i) and, in the top one, a symbolic link (a file that is
// not regular: counted, but not its bytes), and returns its root and
// counts.
func makeTree(t *testing.T) (string, counts) {
	t.Helper()
	root := t.TempDir()
	var c counts
	var mk func(dir string, depth int)
	mk = func(dir string, depth int) {
		c.dirs++
		i := c.dirs
		for k, size := range []int64{i, 100 + i} {
			require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d", k)), make([]byte, size), 0o644))
			c.files++
			c.bytes += size
		}
		if depth == 3 {
			return
		}
		for k := range 4 {
			sub := filepath.Join(dir, fmt.Sprintf("d%d", k))
			require.NoError(t, os.Mkdir(sub, 0o755))
			mk(sub, depth+1)
		}
	}
	mk(root, 0)
	require.NoError(t, os.Symlink("f0", filepath.Join(root, "link")))
	c.files++
	return root, c
}

func TestWalkSerial(t *testing.T) {
	root, want := makeTree(t)
	got, err := walkSerial(root)
	require.NoError(t, err)
	assert.Equal(t, counts{dirs: 85, files: 171, bytes: want.bytes}, got)
	assert.Equal(t, want, got)
}

// TestWalk walks the tree on a pool with every queue, both modes, one and
// three workers, with and without Task.Block, and checks the counts and
// that every directory was one task and one blocking call.
func TestWalk(t *testing.T) {
	root, want := makeTree(t)
	for _, q := range catalog.Names() {
		for _, mode := range cli.Modes {
			for _, workers := range []int{1, 3} {
				for _, block := range []bool{true, false} {
					name := fmt.Sprintf("queue=%s/mode=%v/workers=%d/block=%v", q, mode, workers, block)
					c := config{queue: q, mode: mode, workers: workers, block: block}
					r, err := walkPool(context.Background(), c, root, os.ReadDir, io.Discard)
					require.NoError(t, err, name)
					assert.Equal(t, want, r.counts, name)
					assert.Equal(t, want.dirs, r.stats.Processed, "%s: a task per directory", name)
					if block {
						assert.Equal(t, want.dirs, r.stats.Blocks, "%s: a blocking call per directory", name)
						assert.Positive(t, r.stats.PeakBlocked, name)
					} else {
						assert.Zero(t, r.stats.Blocks, name)
					}
				}
			}
		}
	}
}

// TestWalkLatency walks with a delay in every listing, so that many
// listings wait at once, and checks the counts.
func TestWalkLatency(t *testing.T) {
	root, want := makeTree(t)
	for _, mode := range cli.Modes {
		c := config{queue: "bq", mode: mode, workers: 2, block: true, latency: time.Millisecond}
		r, err := walkPool(context.Background(), c, root, os.ReadDir, io.Discard)
		require.NoError(t, err)
		assert.Equal(t, want, r.counts)
		assert.Equal(t, want.dirs, r.stats.Blocks)
		assert.LessOrEqual(t, r.stats.PeakBlocked, maxBlocked)
	}
}

// TestWalkError makes the listing of one directory fail: the walk returns
// that error, and the pool stops.
func TestWalkError(t *testing.T) {
	root, _ := makeTree(t)
	errBad := errors.New("bad directory")
	bad := filepath.Join(root, "d2", "d1")
	readDir := func(dir string) ([]fs.DirEntry, error) {
		if dir == bad {
			return nil, errBad
		}
		return os.ReadDir(dir)
	}
	for _, block := range []bool{true, false} {
		c := config{queue: "bq", mode: sched.Random, workers: 2, block: block}
		_, err := walkPool(context.Background(), c, root, readDir, io.Discard)
		assert.ErrorIs(t, err, errBad)
	}
	_, err := walkSerial(filepath.Join(root, "nowhere"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

// TestParseFlags checks the defaults and the checks of -root and -latency.
func TestParseFlags(t *testing.T) {
	parse := func(args ...string) (config, error) {
		return parseFlags(cli.New("dirwalk", synopsis, io.Discard, io.Discard), args)
	}
	c, err := parse()
	require.NoError(t, err)
	assert.Equal(t, ".", c.root)
	assert.Zero(t, c.latency)
	assert.True(t, c.block)
	assert.True(t, c.check)
	assert.Equal(t, sched.Random, c.mode)
	assert.Equal(t, min(runtime.GOMAXPROCS(0), cli.MaxWorkers), c.workers)

	root, _ := makeTree(t)
	c, err = parse("-root", root, "-latency", "200us", "-block=false", "-workers", "3")
	require.NoError(t, err)
	assert.Equal(t, 200*time.Microsecond, c.latency)
	assert.False(t, c.block)
	assert.Equal(t, 3, c.workers)

	_, err = parse("-latency", "-1ms")
	assert.EqualError(t, err, "-latency -1ms: out of range; want at least 0s")
	_, err = parse("-root", filepath.Join(root, "f0"))
	assert.EqualError(t, err, "-root "+filepath.Join(root, "f0")+": not a directory")
	_, err = parse("-root", filepath.Join(root, "nowhere"))
	assert.EqualError(t, err, "-root "+filepath.Join(root, "nowhere")+": no such file or directory")
}

// TestCommand builds the command and runs it as a user would: on a tree,
// with and without latency and Task.Block, with each queue, and with each
// kind of bad flag (those of the flags all programs share come from
// cmdtest.Shared).
func TestCommand(t *testing.T) {
	root, _ := makeTree(t)
	const verified = "verified: 85 directories, 171 files and 15,810 bytes, as filepath.WalkDir counts them"
	cases := cmdtest.EveryQueue(verified, "-root", root)
	file := filepath.Join(root, "f0")
	cases = append(cases,
		cmdtest.Verified(verified, "-root", root, "-latency", "1ms", "-workers", "2", "-mode", "random"),
		cmdtest.Verified("blocking calls: 85,", "-root", root, "-latency", "200us", "-progress=false"),
		cmdtest.Verified("blocking calls: 0,", "-root", root, "-block=false", "-latency", "100us", "-workers", "3"),
		cmdtest.Verified("listings on the workers, without Task.Block", "-root", root, "-block=false"),
		cmdtest.Refused("dirwalk: -latency -1ms: out of range; want at least 0s", "-latency", "-1ms"),
		cmdtest.Refused(`dirwalk: invalid value "soon" for flag -latency: parse error`, "-latency", "soon"),
		cmdtest.Refused("dirwalk: -root "+file+": not a directory", "-root", file),
		cmdtest.Refused("dirwalk: -root "+filepath.Join(root, "nowhere")+": no such file or directory", "-root", filepath.Join(root, "nowhere")),
		cmdtest.Refused(`dirwalk: invalid boolean value "maybe" for -check`, "-check=maybe"),
	)
	cmdtest.Command(t, "dirwalk", synopsis, cases)
}

// TestCountsLineTinyWalk checks the summary of walks too small for
// milliseconds: the time in microseconds and a real rate, or "too short to
// measure" where no time passed on the clock.
func TestCountsLineTinyWalk(t *testing.T) {
	assert.Equal(t, "2 directories, 1 file, 3 bytes in 115µs (17,391 directories/s)",
		countsLine(result{counts: counts{dirs: 2, files: 1, bytes: 3}, elapsed: 115 * time.Microsecond}))
	assert.Equal(t, "1 directory, 0 files, 0 bytes in 0s (too short to measure)",
		countsLine(result{counts: counts{dirs: 1}}))
	assert.Equal(t, "1,234 directories, 5,678 files, 9,876,543 bytes in 1.23s (1,000 directories/s)",
		countsLine(result{counts: counts{dirs: 1234, files: 5678, bytes: 9_876_543}, elapsed: 1234 * time.Millisecond}))
}
