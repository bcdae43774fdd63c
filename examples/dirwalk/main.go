package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cli"
	"github.com/worksteal/wsq/sched"
)

// synopsis is the one-line description -h prints first.
const synopsis = "dirwalk counts the files and bytes of a directory tree with a task per directory on a work-stealing pool, listing each directory in Task.Block, and checks the counts against filepath.WalkDir."

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is what the flags select.
type config struct {
	root     string
	latency  time.Duration
	block    bool
	check    bool
	queue    string
	mode     sched.Mode
	workers  int
	progress bool
}

// parseFlags defines the flags on flags, parses args and checks the flags
// together.
func parseFlags(flags *cli.FlagSet, args []string) (config, error) {
	var c config
	flags.StringVar(&c.root, "root", ".", "the `directory` to walk; a symbolic link to one is followed")
	flags.DurationVar(&c.latency, "latency", 0, "a delay added to the listing of each directory, as remote storage would add it (e.g. 200us)")
	flags.BoolVar(&c.block, "block", true, "list each directory inside Task.Block, so that the worker runs other tasks meanwhile (false: the listing stalls the worker)")
	flags.BoolVar(&c.check, "check", true, "walk the tree again with filepath.WalkDir, one goroutine, and compare the counts")
	flags.QueueVar(&c.queue)
	cli.ChoiceVar(flags, &c.mode, "mode", sched.Random, cli.Modes, "load balancing: the paper's master-worker balancing, or randomized stealing")
	flags.WorkersVar(&c.workers)
	flags.ProgressVar(&c.progress)
	if err := flags.Parse(args); err != nil {
		return c, err
	}
	if c.latency < 0 {
		return c, fmt.Errorf("-latency %v: out of range; want at least 0s", c.latency)
	}
	fi, err := os.Stat(c.root)
	switch {
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return c, fmt.Errorf("-root %s: %v", c.root, err)
	case !fi.IsDir():
		return c, fmt.Errorf("-root %s: not a directory", c.root)
	}
	c.workers, err = cli.Workers(c.workers, cli.MaxWorkers, "directory", "of the tree")
	return c, err
}

// run is the whole program; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	flags := cli.New("dirwalk", synopsis, stdout, stderr)
	c, err := parseFlags(flags, args)
	if err != nil {
		return flags.Exit(err)
	}
	// WalkDir does not follow a root that is a symbolic link: both walks
	// start from the directory it names.
	root, err := filepath.EvalSymlinks(c.root)
	if err != nil {
		fmt.Fprintln(stderr, "dirwalk:", err)
		return 1
	}

	how := "each listing in Task.Block"
	if !c.block {
		how = "listings on the workers, without Task.Block"
	}
	fmt.Fprintf(stdout, "dirwalk %s: %s (queue %s, %s mode), %s", c.root, cli.Count(c.workers, "worker"), c.queue, c.mode, how)
	if c.latency > 0 {
		fmt.Fprintf(stdout, ", %v added to each listing", c.latency)
	}
	fmt.Fprintln(stdout)

	r, err := walkPool(context.Background(), c, root, os.ReadDir, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "dirwalk:", err)
		return 1
	}
	fmt.Fprintln(stdout, countsLine(r))
	st := r.stats
	fmt.Fprintf(stdout, "tasks: %s; blocking calls: %s, at most %s under way at once, %s waited for one of the %s slots\n",
		cli.Group(st.Processed), cli.Group(st.Blocks), cli.Group(st.PeakBlocked), cli.Group(st.BlockWaits), cli.Group(maxBlocked))
	if !c.check {
		return 0
	}

	want, err := walkSerial(root)
	if err != nil {
		fmt.Fprintln(stderr, "dirwalk: filepath.WalkDir:", err)
		return 1
	}
	if want != r.counts {
		fmt.Fprintf(stdout, "FAILED: the pool counted %s, %s and %s bytes; filepath.WalkDir %s, %s and %s bytes\n",
			directories(r.dirs), cli.Count(r.files, "file"), cli.Group(r.bytes),
			directories(want.dirs), cli.Count(want.files, "file"), cli.Group(want.bytes))
		return 1
	}
	if c.block && st.Blocks != r.dirs {
		fmt.Fprintf(stdout, "FAILED: %s blocking calls for %s\n", cli.Group(st.Blocks), directories(r.dirs))
		return 1
	}
	fmt.Fprintf(stdout, "verified: %s, %s and %s bytes, as filepath.WalkDir counts them\n",
		directories(r.dirs), cli.Count(r.files, "file"), cli.Group(r.bytes))
	return 0
}

// counts is what a walk counts: directories (the root included), files
// (every entry that is not a directory: regular files, symbolic links,
// devices...), and the bytes of the regular files.
type counts struct{ dirs, files, bytes int64 }

// countsLine describes the walk r: its counts, its time with three
// significant digits, so that a tiny walk shows its microseconds, and its
// rate of directories.
func countsLine(r result) string {
	return fmt.Sprintf("%s, %s, %s bytes in %s (%s)",
		directories(r.dirs), cli.Count(r.files, "file"), cli.Group(r.bytes), cli.Duration(r.elapsed), cli.Rate(r.dirs, r.elapsed, "directories"))
}

// result is the outcome of a walk on the pool.
type result struct {
	counts
	elapsed time.Duration
	stats   sched.Stats
}

// tally counts from many tasks at once.
type tally struct{ dirs, files, bytes atomic.Int64 }

func (t *tally) counts() counts { return counts{t.dirs.Load(), t.files.Load(), t.bytes.Load()} }

// listing is what one directory holds.
type listing struct {
	subdirs      []string
	files, bytes int64
}

// list reads the directory dir with readDir, after waiting latency, and
// the size of each regular file in it: everything that waits for the file
// system, for one Task.Block.
func list(dir string, latency time.Duration, readDir func(string) ([]fs.DirEntry, error)) (listing, error) {
	if latency > 0 {
		time.Sleep(latency)
	}
	entries, err := readDir(dir)
	if err != nil {
		return listing{}, err
	}
	var l listing
	for _, e := range entries {
		if e.IsDir() {
			l.subdirs = append(l.subdirs, filepath.Join(dir, e.Name()))
			continue
		}
		l.files++
		if e.Type().IsRegular() {
			info, err := e.Info()
			if err != nil {
				return listing{}, err
			}
			l.bytes += info.Size()
		}
	}
	return l, nil
}

// maxBlocked is the most listings that wait at once: the pool's
// Config.MaxBlocked, here its default.
const maxBlocked = 256

// walkPool walks the tree under root on a new pool that c describes, with
// a task per directory, all in one Group: a directory's task lists it and
// starts a task for each subdirectory. It shows progress on stderr while it
// runs (see cli.StartProgress). The first error stops the walk: the tasks
// that have not listed their directory yet see the group's context
// cancelled and return.
func walkPool(ctx context.Context, c config, root string, readDir func(string) ([]fs.DirEntry, error), stderr io.Writer) (result, error) {
	newQueue, err := catalog.Factory[sched.Job](c.queue)
	if err != nil {
		return result{}, err
	}
	pool, err := sched.NewPool(sched.PoolConfig{NewQueue: newQueue, Mode: c.mode, Workers: c.workers, MaxBlocked: maxBlocked})
	if err != nil {
		return result{}, err
	}
	var t tally
	stopProgress := cli.StartProgress(stderr, c.progress, 0, func(time.Duration) (int64, string) {
		cur := t.counts()
		return cur.dirs, fmt.Sprintf("dirwalk: %s, %s, %s bytes",
			directories(cur.dirs), cli.Count(cur.files, "file"), cli.Group(cur.bytes))
	})
	g := pool.NewGroup(ctx)
	var visit func(tk *sched.Task, dir string) error
	visit = func(tk *sched.Task, dir string) error {
		ctx := tk.Context()
		if ctx.Err() != nil {
			return nil // an error elsewhere stopped the walk
		}
		var l listing
		var err error
		ls := func() { l, err = list(dir, c.latency, readDir) }
		if c.block {
			tk.Block(ls) // the worker runs other directories' tasks meanwhile
		} else {
			ls()
		}
		if err != nil {
			return err
		}
		t.dirs.Add(1)
		t.files.Add(l.files)
		t.bytes.Add(l.bytes)
		for _, sub := range l.subdirs {
			g.Go(tk, func(tk *sched.Task) error { return visit(tk, sub) })
		}
		return nil
	}
	start := time.Now()
	g.Go(nil, func(tk *sched.Task) error { return visit(tk, root) })
	err = g.Wait(nil)
	r := result{counts: t.counts(), elapsed: time.Since(start)}
	r.stats = pool.Close()
	stopProgress()
	return r, err
}

// walkSerial counts the tree under root with filepath.WalkDir, the
// reference.
func walkSerial(root string) (counts, error) {
	var c counts
	err := filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			c.dirs++
			return nil
		}
		c.files++
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			c.bytes += info.Size()
		}
		return nil
	})
	return c, err
}

// directories formats a count of directories: cli.Count would write
// "directorys".
func directories(n int64) string {
	if n == 1 {
		return "1 directory"
	}
	return cli.Group(n) + " directories"
}
