package bench

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/worksteal/wsq/sched"
)

// Tasks that block. BenchmarkBlockingWalk walks a synthetic directory tree
// of 2,964 directories (22,170 files) held in memory, with a task or a
// goroutine per directory, where listing a directory sleeps walkLatency
// (200 µs), as listing a directory on a network file system or an object
// store waits for the server. The contenders:
//
//   - pool: the default pool (sched.NewPool(): GOMAXPROCS workers), the
//     walk in one Group, each listing inside Task.Block;
//   - pool-max16: the same with Config.MaxBlocked 16, so that at most 16
//     listings wait at once, as in the two below (the others wait for a
//     slot while their workers go on);
//   - goroutines: a goroutine per directory, a semaphore of 16 around the
//     listing;
//   - errgroup: an errgroup.Group with SetLimit(16); a directory's
//     goroutine starts its subdirectories with TryGo and lists those that
//     find no free slot itself (a Go that waits for a slot from inside the
//     group would wait forever once every slot's goroutine does so);
//   - pool-noblock: the default pool without Task.Block: each listing
//     stalls its worker, which is what a pool did before Task.Block.
//
// One op is one whole walk; ns/dir divides by the directories. Every walk
// checks its counts of directories, files and bytes. The pool row also
// reports the walk's parallelism and burdened-parallelism, from one
// measured run of BenchmarkSpan's workload before the timed loop
// (spanProfile); the listings' waits count as work there.
//
//	go test -run '^$' -bench BlockingWalk -count 6 ./bench

// walkLatency is what listing one directory waits.
const walkLatency = 200 * time.Microsecond

// walkMaxDepth and walkFanout shape the tree: a directory above
// walkMaxDepth has up to walkFanout-1 subdirectories, by a hash of its ID.
const (
	walkMaxDepth = 7
	walkFanout   = 7
)

// walkDir names a directory of the synthetic tree.
type walkDir struct {
	id    uint64
	depth int
}

// walkRoot is the tree's root.
var walkRoot = walkDir{id: 1}

// walkCount is what a walk counts.
type walkCount struct{ dirs, files, bytes int64 }

// list returns the subdirectories of d, and the number and total size of
// its files, after sleeping walkLatency unless fast is set.
func (d walkDir) list(fast bool) (subdirs []walkDir, files, bytes int64) {
	if !fast {
		time.Sleep(walkLatency)
	}
	h := splitmix(d.id)
	files = int64(h >> 8 % 16)
	for i := range files {
		bytes += int64(splitmix(d.id^uint64(i)<<32) % (64 << 10))
	}
	if d.depth < walkMaxDepth {
		for i := range h % walkFanout {
			subdirs = append(subdirs, walkDir{id: splitmix(d.id*31 + i + 1), depth: d.depth + 1})
		}
	}
	return subdirs, files, bytes
}

// splitmix is the finalizer of SplitMix64, a hash of x.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// walkTally counts concurrently.
type walkTally struct{ dirs, files, bytes atomic.Int64 }

func (t *walkTally) add(files, bytes int64) {
	t.dirs.Add(1)
	t.files.Add(files)
	t.bytes.Add(bytes)
}

func (t *walkTally) count() walkCount {
	return walkCount{t.dirs.Load(), t.files.Load(), t.bytes.Load()}
}

// walkSerial walks the tree without sleeping: the reference counts.
func walkSerial(d walkDir) walkCount {
	subdirs, files, bytes := d.list(true)
	c := walkCount{1, files, bytes}
	for _, s := range subdirs {
		sc := walkSerial(s)
		c.dirs += sc.dirs
		c.files += sc.files
		c.bytes += sc.bytes
	}
	return c
}

// walkImpl prepares a walk, and returns it and a function that releases
// what it holds. fast skips the sleeps (for the test).
type walkImpl struct {
	name    string
	prepare func(fast bool) (walk func(walkDir) walkCount, stop func())
}

// walkLimit is the most listings at once of goroutines, errgroup and
// pool-max16.
const walkLimit = 16

func walkImpls() []walkImpl {
	return []walkImpl{
		{"pool", func(fast bool) (func(walkDir) walkCount, func()) {
			return walkPool(sched.PoolConfig{Mode: benchMode}, fast, true)
		}},
		{"pool-max16", func(fast bool) (func(walkDir) walkCount, func()) {
			return walkPool(sched.PoolConfig{Mode: benchMode, MaxBlocked: walkLimit}, fast, true)
		}},
		{"goroutines", func(fast bool) (func(walkDir) walkCount, func()) {
			return func(d walkDir) walkCount { return walkGoroutines(d, fast) }, func() {}
		}},
		{"errgroup", func(fast bool) (func(walkDir) walkCount, func()) {
			return func(d walkDir) walkCount { return walkErrgroup(d, fast) }, func() {}
		}},
		{"pool-noblock", func(fast bool) (func(walkDir) walkCount, func()) {
			return walkPool(sched.PoolConfig{Mode: benchMode}, fast, false)
		}},
	}
}

func BenchmarkBlockingWalk(b *testing.B) {
	want := walkSerial(walkRoot)
	for _, impl := range walkImpls() {
		b.Run("impl="+impl.name, func(b *testing.B) {
			var prof *sched.Profile
			if impl.name == "pool" {
				p := spanProfile("blockingwalk")
				prof = &p
			}
			walk, stop := impl.prepare(false)
			defer stop()
			b.ReportAllocs()
			for b.Loop() {
				if got := walk(walkRoot); got != want {
					b.Fatalf("walk counted %+v, want %+v", got, want)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(want.dirs)/float64(b.N), "ns/dir")
			if prof != nil {
				prof.Report(b)
			}
		})
	}
}

// TestBlockingWalk checks the tree's size and that every contender counts
// it right, without the sleeps.
func TestBlockingWalk(t *testing.T) {
	want := walkSerial(walkRoot)
	if want != (walkCount{dirs: 2964, files: 22170, bytes: want.bytes}) || want.dirs < 2000 {
		t.Fatalf("the tree has %+v, not the 2,964 directories and 22,170 files the documentation gives", want)
	}
	for _, impl := range walkImpls() {
		walk, stop := impl.prepare(true)
		for range 3 {
			if got := walk(walkRoot); got != want {
				t.Errorf("%s counted %+v, want %+v", impl.name, got, want)
			}
		}
		stop()
	}
}

// walkPool makes a pool as cfg says and returns a walk on it: a task per
// directory in one Group, the listing in Task.Block if block is set.
func walkPool(cfg sched.PoolConfig, fast, block bool) (func(walkDir) walkCount, func()) {
	pool, err := sched.NewPool(cfg)
	if err != nil {
		panic(err)
	}
	walk := func(root walkDir) walkCount {
		var tally walkTally
		g := pool.NewGroup(context.Background())
		var visit func(t *sched.Task, d walkDir) error
		visit = func(t *sched.Task, d walkDir) error {
			var subdirs []walkDir
			var files, bytes int64
			if block {
				t.Block(func() { subdirs, files, bytes = d.list(fast) })
			} else {
				subdirs, files, bytes = d.list(fast)
			}
			tally.add(files, bytes)
			for _, s := range subdirs {
				g.Go(t, func(t *sched.Task) error { return visit(t, s) })
			}
			return nil
		}
		g.Go(nil, func(t *sched.Task) error { return visit(t, root) })
		if err := g.Wait(nil); err != nil {
			panic(err)
		}
		return tally.count()
	}
	return walk, func() { pool.Close() }
}

// walkGoroutines walks with a goroutine per directory and a semaphore of
// walkLimit around the listing.
func walkGoroutines(root walkDir, fast bool) walkCount {
	var tally walkTally
	var wg sync.WaitGroup
	sem := make(chan struct{}, walkLimit)
	var visit func(d walkDir)
	visit = func(d walkDir) {
		defer wg.Done()
		sem <- struct{}{}
		subdirs, files, bytes := d.list(fast)
		<-sem
		tally.add(files, bytes)
		for _, s := range subdirs {
			wg.Add(1)
			go visit(s)
		}
	}
	wg.Add(1)
	go visit(root)
	wg.Wait()
	return tally.count()
}

// walkErrgroup walks with an errgroup.Group limited to walkLimit
// goroutines: a subdirectory gets a goroutine of its own if a slot is
// free, and is walked by its parent's goroutine otherwise.
func walkErrgroup(root walkDir, fast bool) walkCount {
	var tally walkTally
	var g errgroup.Group
	g.SetLimit(walkLimit)
	var visit func(d walkDir) error
	visit = func(d walkDir) error {
		subdirs, files, bytes := d.list(fast)
		tally.add(files, bytes)
		for _, s := range subdirs {
			if !g.TryGo(func() error { return visit(s) }) {
				if err := visit(s); err != nil {
					return err
				}
			}
		}
		return nil
	}
	g.Go(func() error { return visit(root) })
	if err := g.Wait(); err != nil {
		panic(fmt.Sprint("errgroup walk: ", err))
	}
	return tally.count()
}
