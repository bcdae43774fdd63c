// Package cmdtest helps the example programs' tests build a program and run
// it as a user would: BuildBinary builds it, and Run runs a table of command
// lines, each with the exit status and output it must give. These tables are
// the one place where the programs are run as commands, in CI as anywhere
// else, under go test.
package cmdtest
