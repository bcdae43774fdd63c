package interleave

import (
	"fmt"
	"regexp"
	"strings"
)

// Failure is an execution that violated a property, with what is needed to
// understand and replay it.
type Failure struct {
	// Err is the violated property.
	Err error
	// Execution is the 1-based number of the failing execution.
	Execution int
	// Schedule is the thread chosen at each scheduling point: a string
	// for Replay.
	Schedule string
	// Seed is the seed of a failing random execution (Random only).
	Seed    uint64
	HasSeed bool
	// Trace is the failing execution replayed step by step: every
	// operation of every thread, with its operands, and the calls and
	// returns of the operations the threads report with Begin and End.
	Trace string
	// Replayed says whether the traced replay failed the same way; false
	// means the program is not deterministic under the scheduler.
	Replayed bool
}

func (f *Failure) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "violation: %v\n", f.Err)
	fmt.Fprintf(&b, "execution %d, schedule %s", f.Execution, f.Schedule)
	if f.HasSeed {
		fmt.Fprintf(&b, ", seed %d", f.Seed)
	}
	b.WriteString("\n")
	if !f.Replayed {
		b.WriteString("WARNING: the traced replay did not fail the same way; the program is not deterministic under the scheduler\n")
	}
	b.WriteString(" tick  thread   operation\n")
	b.WriteString(elide(f.Trace, 100, 30))
	fmt.Fprintf(&b, "violation: %v\n", firstLine(f.Err))
	return b.String()
}

// elide shortens a trace of more than head+tail lines to its first head and
// last tail lines (the whole trace is in Failure.Trace).
func elide(trace string, head, tail int) string {
	lines := strings.SplitAfter(trace, "\n")
	if len(lines) <= head+tail+1 {
		return trace
	}
	n := len(lines) - 1 // the last element is empty
	return strings.Join(lines[:head], "") +
		fmt.Sprintf("       ...      (%d lines left out)\n", n-head-tail) +
		strings.Join(lines[n-tail:], "")
}

func firstLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// hexAddr matches a printed pointer, which differs between two runs of the
// same schedule because every execution builds a fresh instance.
var hexAddr = regexp.MustCompile(`0x[0-9a-f]+`)

// sameFailure says whether a and b report the same failure: their first
// lines agree once pointer values are masked.
func sameFailure(a, b error) bool {
	return hexAddr.ReplaceAllString(firstLine(a), "0x?") == hexAddr.ReplaceAllString(firstLine(b), "0x?")
}

// failure describes the failing execution e and replays it with tracing.
func failure(p Program, opt Options, e *execution, n int) *Failure {
	f := &Failure{Err: e.err, Execution: n, Schedule: encodeSchedule(e.schedule)}
	ids, _ := parseSchedule(f.Schedule)
	re := execute(p, &replay{ids: ids}, opt.MaxSteps, true)
	f.Trace = re.trace.String()
	f.Replayed = re.err != nil && sameFailure(re.err, e.err)
	return f
}
