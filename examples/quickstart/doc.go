// Command quickstart is the smallest correct owner/thief program: the owner
// pushes a batch of work and pops it newest first while a thief steals the
// oldest part in bulk; together they process every item exactly once.
//
// Usage:
//
//	go run ./examples/quickstart [-queue bq] [-n 100000]
//
// Flags:
//
//	-queue  queue implementation, any name of package catalog (default bq,
//	        blockq, the queue the module recommends)
//	-n      number of items to process, 0 to 1,000,000 (default 100,000);
//	        numbers may be grouped, as in 100,000 or 100_000
//	-h      print a one-line description and the flags, and exit
//
// Each item costs about a microsecond, so even the largest run takes well
// under a second. The program prints who processed how many items, checks
// the count and the sum of the items, and prints a line starting with
// "verified:" and exits 0 on success; it exits 1 if the check fails and 2 on
// bad flags, with one message and the hint
// "run with -h for help".
package main
