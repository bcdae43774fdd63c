// Package cmdtest helps the example programs' tests build a program and run
// it as a user would: BuildBinary builds it, and Run runs a table of command
// lines, each with the exit status and output it must give. Command does
// both for a program's TestCommand, adding the Shared cases that every
// program of package cli must pass (-h, and the refusals of the flags they
// all share), so that each test lists only what is particular to its
// program; EveryQueue makes a case for each queue of package catalog. These
// tables are the one place where the programs are run as commands, in CI as
// anywhere else, under go test.
package cmdtest
