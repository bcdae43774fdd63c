package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
)

// MaxWorkers is the largest -workers a program accepts. It is far above the
// 128 threads of the paper's largest runs; each worker costs a goroutine, a
// queue and a row of the report.
const MaxWorkers = 1024

// FlagSet is the flag set of one program. It embeds a flag.FlagSet, so the
// usual definitions (BoolVar, StringVar, Uint64Var and so on) are there
// besides the checked ones of this package.
type FlagSet struct {
	*flag.FlagSet
	name     string
	synopsis string
	stdout   io.Writer
	stderr   io.Writer
	// types names the type of each checked flag for the help.
	types map[string]string
	// setErr is the error of the last checked value that failed: the flag
	// package wraps it in a message of its own, which Parse replaces with
	// this one.
	setErr error
}

// New returns the flag set of the program called name. The synopsis is the
// one-line description -h prints first: a sentence that starts with the
// program's name. Help goes to stdout and errors to stderr.
func New(name, synopsis string, stdout, stderr io.Writer) *FlagSet {
	fs := &FlagSet{
		FlagSet:  flag.NewFlagSet(name, flag.ContinueOnError),
		name:     name,
		synopsis: synopsis,
		stdout:   stdout,
		stderr:   stderr,
		types:    map[string]string{},
	}
	// Parse prints nothing: Exit reports errors and help.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// Parse parses args, which exclude the program name. It returns flag.ErrHelp
// for -h or -help, and an error that names the flag and the value for a bad
// value. A program takes flags only, so an argument after them is an error
// too.
func (fs *FlagSet) Parse(args []string) error {
	fs.setErr = nil
	err := fs.FlagSet.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return flag.ErrHelp
	case err != nil && fs.setErr != nil:
		return fs.setErr
	case err != nil:
		return err
	case fs.NArg() > 0:
		return fmt.Errorf("unexpected argument %q: %s takes flags only", fs.Arg(0), fs.name)
	}
	return nil
}

// HelpHint is the line Exit prints after an error, in place of the usage,
// which would push the error off the screen.
const HelpHint = "run with -h for help"

// Exit reports err and returns the program's exit status. For flag.ErrHelp
// it prints the help (the synopsis, then the flags) to stdout and returns 0;
// for any other error it prints two lines to stderr, the program's name
// and err, then HelpHint, and returns 2.
func (fs *FlagSet) Exit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		fs.PrintHelp(fs.stdout)
		return 0
	}
	fmt.Fprintf(fs.stderr, "%s: %v\n%s\n", fs.name, err, HelpHint)
	return 2
}

// PrintHelp writes what -h prints: the synopsis, then the usage.
func (fs *FlagSet) PrintHelp(w io.Writer) {
	fmt.Fprintf(w, "%s\n\n", fs.synopsis)
	fs.printUsage(w)
}

// printUsage writes the command line and the flags, in the layout of the
// flag package, with defaults grouped like every other number (a false
// default is left out).
func (fs *FlagSet) printUsage(w io.Writer) {
	fmt.Fprintf(w, "Usage: %s [flags]\n\nFlags:\n", fs.name)
	fs.VisitAll(func(f *flag.Flag) {
		typ, usage := flag.UnquoteUsage(f)
		if t, ok := fs.types[f.Name]; ok {
			typ = t
		}
		fmt.Fprintf(w, "  -%s", f.Name)
		if typ != "" {
			fmt.Fprintf(w, " %s", typ)
		}
		fmt.Fprintf(w, "\n    \t%s", strings.ReplaceAll(usage, "\n", "\n    \t"))
		if f.DefValue != "" && f.DefValue != "false" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
	fmt.Fprintf(w, "  -h\n    \tprint this help and exit\n")
}

// Given reports whether the named flag was given on the command line.
func (fs *FlagSet) Given(name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// Unused returns an error if any of the named flags was given on the
// command line, saying that it does nothing in the situation why describes
// (for example "in master mode"), and naming every such flag in alphabetical
// order; otherwise it returns nil. A program calls it for the flags its
// chosen mode ignores, so that a flag never silently does nothing.
func (fs *FlagSet) Unused(why string, names ...string) error {
	var set []string
	fs.Visit(func(f *flag.Flag) {
		for _, n := range names {
			if f.Name == n {
				set = append(set, "-"+n)
			}
		}
	})
	switch len(set) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%s does nothing %s", set[0], why)
	}
	return fmt.Errorf("%s and %s do nothing %s", strings.Join(set[:len(set)-1], ", "), set[len(set)-1], why)
}

// Workers returns the number of workers for a -workers value n (see
// WorkersVar) and a run with limit pieces of work that could be handled at
// once, each called unit, in where (for example "node" and "of the graph"):
// n itself if it is at most limit, else an error that says so; for n = 0,
// GOMAXPROCS, but no more than limit or MaxWorkers. A program that cannot
// tell how much work there will be passes MaxWorkers as the limit.
func Workers(n int, limit int64, unit, where string) (int, error) {
	if n == 0 {
		return int(max(1, min(int64(runtime.GOMAXPROCS(0)), limit, MaxWorkers))), nil
	}
	if int64(n) > limit {
		return 0, fmt.Errorf("-workers %s: more than the %s %s; a worker needs work to do", Group(n), Count(limit, unit), where)
	}
	return n, nil
}
