//go:build ignore

// Fibserial times the plain recursive fib(27) in Go, the serial code under
// the fork-join figures of BenchmarkForkJoin, for comparison with the Rust
// harness's BenchmarkFibSerial/n=27 (see README.md). It prints one line in
// Go's benchmark format per -count. It is a program of its own (the build
// constraint keeps it out of the module's packages):
//
//	go run bench/peers/fibserial.go [-test.benchtime 10x] [-count 6]
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"testing"
)

// fib is the recursion of bench's fibSerial.
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

// n is a variable, so that the compiler cannot fold the call.
var n = 27

func main() {
	testing.Init() // registers -test.benchtime, which testing.Benchmark reads
	count := flag.Int("count", 1, "samples to print")
	flag.Parse()
	if *count < 1 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "fibserial: usage: go run fibserial.go [-test.benchtime D|Nx] [-count N>0]")
		os.Exit(2)
	}
	want := fib(n)
	name := fmt.Sprintf("BenchmarkFibSerial/n=%d", n)
	if p := runtime.GOMAXPROCS(0); p > 1 {
		name += fmt.Sprintf("-%d", p)
	}
	for range *count {
		r := testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				if fib(n) != want {
					b.Fatal("fibserial: fib changed its result")
				}
			}
		})
		if r.N == 0 {
			fmt.Fprintln(os.Stderr, "fibserial: the benchmark failed")
			os.Exit(1)
		}
		fmt.Printf("%s\t%s\n", name, r.String())
	}
}
