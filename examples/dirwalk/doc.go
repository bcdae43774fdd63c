// Command dirwalk counts the directories, files and bytes of a directory
// tree with a task per directory on a sched.Pool, and checks the counts
// against filepath.WalkDir. Listing a directory waits for the file system,
// which on a network file system or an object store takes hundreds of
// microseconds; each task lists its directory inside Task.Block, so that
// its worker runs other directories' tasks meanwhile instead of waiting.
//
// Usage:
//
//	go run ./examples/dirwalk [-root .] [-latency 0] [-block] [-check]
//	                          [-queue bq] [-mode random] [-workers 0]
//
// Flags:
//
//	-root      the directory to walk (default .); a symbolic link to a
//	           directory is followed
//	-latency   a delay added to the listing of each directory, inside the
//	           blocking call, as remote storage would add it (e.g. 200us;
//	           default 0)
//	-block     list each directory inside Task.Block (default true);
//	           -block=false lists it on the worker, which stalls meanwhile
//	-check     walk the tree again with filepath.WalkDir and compare the
//	           counts (default true)
//	-queue     queue implementation, any name of package catalog
//	-mode      random (decentralized randomized stealing, the default, as
//	           in a zero sched.PoolConfig) or master (the paper's
//	           master-worker balancing)
//	-workers   number of workers, at most 1,024; 0 (the default) means
//	           GOMAXPROCS
//	-progress  show a progress line on stderr (default true)
//	-h         print a one-line description and the flags, and exit
//
// The progress line shows the directories, files and bytes counted so far
// and is rewritten four times a second, only when stderr is a terminal.
// Numbers are printed grouped by thousands.
//
// # The walk
//
// Every directory is a task of one sched.Group. A directory's task lists
// the directory, counts its files and their bytes, and starts a task in
// the group for each subdirectory; Wait returns when every directory has
// been counted, or with the first error, which cancels the group's
// context and so stops the tasks that have not listed their directory yet:
//
//	ls := func() { l, err = list(dir, latency, os.ReadDir) }
//	t.Block(ls) // the worker runs other directories' tasks meanwhile
//	...
//	for _, sub := range l.subdirs {
//		g.Go(t, func(t *sched.Task) error { return visit(t, sub) })
//	}
//
// Task.Block lends the task's worker to another goroutine while the
// listing waits, and gives it back when the listing returns, so the pool
// keeps GOMAXPROCS goroutines running tasks however many listings wait;
// the program prints how many blocking calls there were and how many
// waited at once (at most 256, the pool's Config.MaxBlocked; beyond it a
// listing waits for a slot while its worker runs other tasks). With -block=false and a
// -latency, the walk takes about the latency times the directories divided
// by the workers; with Task.Block, about that divided by up to 256 more
// (package bench measures both: BenchmarkBlockingWalk).
//
// # Verification
//
// The program counts the tree again with filepath.WalkDir in one
// goroutine and checks that both walks found the same directories (the
// root included), files (every entry that is not a directory) and bytes
// (the sizes of the regular files), and that there was one blocking call
// per directory. It prints a line starting with "verified:" and exits 0 on
// success; it exits 1 if a check fails or the tree cannot be read (a
// directory that cannot be listed, a file removed during the walk), and 2
// on bad flags (a -root that is not a directory included), with one
// message and the hint "run with -h for help". The tree must not change
// while the program runs.
package main
