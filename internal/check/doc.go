// Package check holds no code of its own: its directory keeps the module's
// test harnesses apart from the library's helpers, which are the other
// packages of internal/. Its one test, TestFloors, checks that the imports
// between the module's packages point down.
//
// The harnesses, each imported by tests and by other harnesses only:
//
//	chaos       scheduling noise at every atomic operation (tag wsqchaos)
//	interleave  a deterministic scheduler that explores interleavings (tag wsqcheck)
//	  queuecheck  its scenarios run against a wsq.Queue, each history checked
//	model       the executable specification of wsq.Queue
//	queuetest   the conformance suite every queue runs
//	mutant      test binaries built with a deliberate bug patched in
//	testenv     the tests' sizes and the go tool's listings
//	doccheck    tests that keep the documentation honest
//
// The floors of the module, from the top; a package imports only packages
// of its own floor or below, and the helpers no harness:
//
//	floor  packages                                  non-test files import
//	5      bench, bench/dag, examples/...            anything below; harnesses too
//	4      par; internal/check/schedtest             floors 0-3 (schedtest: the
//	                                                 test helpers of sched and par)
//	3      sched, catalog                            floors 0-2
//	2      blockq, chaselev, lfqueue, mutexq, tfdeque  floors 0-2
//	1      wsq (the module root: Queue, Contract)    floor 0
//	0      internal/atomicx, pad, steal, schedstats  other helpers only
//	-      internal/check/...                        wsq and other harnesses
//
// One exception is by design: under the build tags wsqcheck and wsqchaos,
// internal/atomicx calls into interleave and chaos, the seam through which
// the harnesses see every atomic operation (see package atomicx). Those two
// harnesses import nothing of the module, so no arrow points up. Test files
// may import any package, but a test of a package under internal/ never
// imports sched, catalog, par, schedtest, bench or examples.
package check
