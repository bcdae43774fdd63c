// Package catalog names every queue implementation of the module, so that
// benchmarks, the scheduler's users and the example programs can choose one
// by a string such as a command-line flag.
//
// The names are the ones used in benchmark results (queue=NAME) and in
// BENCHMARKS.md.
package catalog
