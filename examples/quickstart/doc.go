// Command quickstart is the smallest correct owner/thief program: the owner
// pushes a batch of work and pops it newest first while a thief steals the
// oldest part in bulk; together they process every item exactly once.
//
// Usage:
//
//	go run ./examples/quickstart [-queue lf] [-n 100000]
//
// It prints who processed how many items and checks the total.
package main
