// Command taskcheck reports misuses of a *sched.Task that the compiler
// accepts and a run would only find when it panics: see package taskcheck.
// Run it alone, or as go vet's tool:
//
//	go install github.com/worksteal/wsq/taskcheck/cmd/taskcheck@latest
//	taskcheck ./...
//	go vet -vettool=$(which taskcheck) ./...
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/worksteal/wsq/taskcheck"
)

func main() { singlechecker.Main(taskcheck.Analyzer) }
