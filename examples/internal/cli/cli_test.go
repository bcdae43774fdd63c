package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/sched"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// flags is a program with one flag of each kind.
type flags struct {
	fs         *FlagSet
	stdout     bytes.Buffer
	stderr     bytes.Buffer
	n          int
	nodes      int64
	proportion float64
	queue      string
	mode       sched.Mode
	workers    int
	one        bool
	progress   bool
}

func newFlags() *flags {
	f := &flags{}
	f.fs = New("prog", "prog does something useful.", &f.stdout, &f.stderr)
	f.fs.IntRangeVar(&f.n, "n", 27, 0, 90, "compute fib(n)")
	f.fs.Int64RangeVar(&f.nodes, "nodes", 1_000_000, 1, math.MaxInt64, "number of nodes")
	f.fs.ProportionVar(&f.proportion, Proportion, "part of a queue one steal takes")
	f.fs.QueueVar(&f.queue)
	ChoiceVar(f.fs, &f.mode, "mode", sched.Master, Modes, "load balancing")
	f.fs.WorkersVar(&f.workers)
	f.fs.BoolVar(&f.one, "one", false, "steal one item at a time")
	f.fs.ProgressVar(&f.progress)
	return f
}

func TestParseDefaults(t *testing.T) {
	f := newFlags()
	require.NoError(t, f.fs.Parse(nil))
	assert.Equal(t, 27, f.n)
	assert.Equal(t, int64(1_000_000), f.nodes)
	assert.Zero(t, f.proportion, "auto")
	assert.Equal(t, "bq", f.queue, "blockq, the recommended queue")
	assert.Equal(t, sched.Master, f.mode)
	assert.Equal(t, 0, f.workers)
	assert.True(t, f.progress)
}

// TestProportionAuto sets -proportion to a number and back to auto.
func TestProportionAuto(t *testing.T) {
	f := newFlags()
	require.NoError(t, f.fs.Parse([]string{"-proportion", "0.25", "-proportion", "auto"}))
	assert.Zero(t, f.proportion)
	assert.Equal(t, "auto", ProportionString(0))
	assert.Equal(t, "0.25", ProportionString(0.25))
}

func TestParseValues(t *testing.T) {
	f := newFlags()
	require.NoError(t, f.fs.Parse([]string{"-n", "90", "-nodes", "2,500,000", "-proportion", "1", "-queue", "cl-bd", "-mode", "random", "-workers", "1_024", "-progress=false"}))
	assert.Equal(t, 90, f.n)
	assert.Equal(t, int64(2_500_000), f.nodes)
	assert.Equal(t, 1.0, f.proportion)
	assert.Equal(t, "cl-bd", f.queue)
	assert.Equal(t, sched.Random, f.mode)
	assert.Equal(t, MaxWorkers, f.workers)
	assert.False(t, f.progress)
	assert.True(t, f.fs.Given("mode"))
	assert.False(t, f.fs.Given("one"))
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-n", "91"}, "-n 91: out of range; want 0 to 90"},
		{[]string{"-n", "-1"}, "-n -1: out of range; want 0 to 90"},
		{[]string{"-n", "x"}, "-n x: not an integer"},
		{[]string{"-n", ""}, `-n "": not an integer`},
		{[]string{"-n", "1 2"}, `-n "1 2": not an integer`},
		{[]string{"-n"}, "flag needs an argument: -n"},
		{[]string{"-nodes", "0"}, "-nodes 0: out of range; want at least 1"},
		{[]string{"-nodes", "99999999999999999999"}, "-nodes 99999999999999999999: not an integer"},
		{[]string{"-proportion", "0"}, "-proportion 0: outside (0, 1]"},
		{[]string{"-proportion", "1.5"}, "-proportion 1.5: outside (0, 1]"},
		{[]string{"-proportion", "NaN"}, "-proportion NaN: outside (0, 1]"},
		{[]string{"-proportion", "half"}, "-proportion half: not a number, nor auto"},
		{[]string{"-queue", "nope"}, "-queue nope: unknown queue; known queues: " + strings.Join(catalog.Names(), ", ")},
		{[]string{"-mode", "both"}, "-mode both: unknown value; want master or random"},
		{[]string{"-workers", "-1"}, "-workers -1: out of range; want 0 to 1,024"},
		{[]string{"-workers", "100000"}, "-workers 100000: out of range; want 0 to 1,024"},
		{[]string{"-one=maybe"}, `invalid boolean value "maybe" for -one`},
		{[]string{"-nosuch"}, "flag provided but not defined: -nosuch"},
		{[]string{"-n", "5", "extra"}, `unexpected argument "extra": prog takes flags only`},
	} {
		f := newFlags()
		err := f.fs.Parse(tc.args)
		if assert.Error(t, err, "%q", tc.args) {
			assert.True(t, strings.HasPrefix(err.Error(), tc.want), "%q: %v", tc.args, err)
		}
		assert.Empty(t, f.stdout.String()+f.stderr.String(), "%q: Parse prints nothing", tc.args)
	}
}

func TestExitHelp(t *testing.T) {
	for _, arg := range []string{"-h", "-help", "--help"} {
		f := newFlags()
		err := f.fs.Parse([]string{arg})
		require.ErrorIs(t, err, flag.ErrHelp)
		assert.Equal(t, 0, f.fs.Exit(err))
		assert.Empty(t, f.stderr.String())
		out := f.stdout.String()
		assert.True(t, strings.HasPrefix(out, "prog does something useful.\n\nUsage: prog [flags]\n\nFlags:\n"), out)
		for _, s := range []string{
			"  -n int\n    \tcompute fib(n); 0 to 90 (default 27)\n",
			"  -nodes int\n    \tnumber of nodes; at least 1 (default 1,000,000)\n",
			"  -mode master|random\n    \tload balancing (default master)\n",
			"  -queue name\n    \tqueue implementation: bq, lf, ",
			" (default bq)\n",
			"  -proportion auto|float\n    \tpart of a queue one steal takes (default auto)\n",
			"  -workers int\n    \tnumber of workers, no more than there is work for; 0 means GOMAXPROCS; 0 to 1,024 (default 0)\n",
			"  -one\n    \tsteal one item at a time\n",
			"  -progress\n    \tshow a progress line",
			"  -h\n    \tprint this help and exit\n",
		} {
			assert.Contains(t, out, s)
		}
	}
}

// TestExitError checks that a bad flag prints its error and the hint to
// run with -h, and not the usage, which would push the error off the
// screen.
func TestExitError(t *testing.T) {
	f := newFlags()
	err := f.fs.Parse([]string{"-n", "100"})
	assert.Equal(t, 2, f.fs.Exit(err))
	assert.Empty(t, f.stdout.String())
	assert.Equal(t, "prog: -n 100: out of range; want 0 to 90\nrun with -h for help\n", f.stderr.String())

	f = newFlags()
	assert.Equal(t, 2, f.fs.Exit(errors.New("-workers 5: more than 3 nodes")))
	assert.Equal(t, "prog: -workers 5: more than 3 nodes\nrun with -h for help\n", f.stderr.String())

	f = newFlags()
	assert.Equal(t, 2, f.fs.Exit(f.fs.Parse([]string{"-nosuch"})))
	assert.Equal(t, "prog: flag provided but not defined: -nosuch\nrun with -h for help\n", f.stderr.String())
}

// TestDuration checks that durations keep three significant digits in the
// unit their size calls for, so that a tiny run does not print 0s.
func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                                     "0s",
		1:                                     "1ns",
		664:                                   "664ns",
		999:                                   "999ns",
		1000:                                  "1µs",
		1234:                                  "1.23µs",
		96_234:                                "96.2µs",
		999_999:                               "1ms",
		1_234_567:                             "1.23ms",
		12_345_678_901:                        "12.3s",
		2*time.Minute + 3456*time.Millisecond: "2m3s",
		-1234:                                 "-1.23µs",
	} {
		assert.Equal(t, want, Duration(d), "%d ns", int64(d))
	}
}

// TestRate checks rates, and the one case no clock can time.
func TestRate(t *testing.T) {
	for _, tc := range []struct {
		n     int64
		d     time.Duration
		units string
		want  string
	}{
		{10, 96 * time.Microsecond, "nodes", "104,167 nodes/s"},
		{2, 115 * time.Microsecond, "directories", "17,391 directories/s"},
		{5_000_000, 2 * time.Second, "nodes", "2.50 M nodes/s"},
		{3_000_000_000, time.Second, "tasks", "3000 M tasks/s"},
		{1, 2 * time.Second, "steals", "0.500 steals/s"},
		{1, 3 * time.Second, "", "0.333/s"},
		{99, time.Second, "", "99.0/s"},
		{0, time.Second, "hand-offs", "0 hand-offs/s"},
		{5, 0, "hand-offs", "too short to measure"},
	} {
		assert.Equal(t, tc.want, Rate(tc.n, tc.d, tc.units), "%d in %v", tc.n, tc.d)
	}
}

func TestUnused(t *testing.T) {
	f := newFlags()
	require.NoError(t, f.fs.Parse([]string{"-one", "-proportion", "0.3", "-n", "3"}))
	assert.NoError(t, f.fs.Unused("in master mode", "nodes"))
	assert.EqualError(t, f.fs.Unused("in master mode", "one"), "-one does nothing in master mode")
	assert.EqualError(t, f.fs.Unused("with -file", "one", "proportion"), "-one and -proportion do nothing with -file")
	assert.EqualError(t, f.fs.Unused("here", "n", "one", "proportion", "queue"), "-n, -one and -proportion do nothing here")

	f = newFlags()
	require.NoError(t, f.fs.Parse([]string{"-one=false"}))
	assert.EqualError(t, f.fs.Unused("in master mode", "one"), "-one does nothing in master mode", "set to its default, but set")
}

func TestWorkers(t *testing.T) {
	p := runtime.GOMAXPROCS(0)
	w, err := Workers(0, 1<<40, "node", "of the graph")
	require.NoError(t, err)
	assert.Equal(t, p, w)
	w, err = Workers(0, 1, "node", "of the graph")
	require.NoError(t, err)
	assert.Equal(t, 1, w, "GOMAXPROCS, but no more than the work")
	w, err = Workers(3, 3, "node", "of the graph")
	require.NoError(t, err)
	assert.Equal(t, 3, w)
	_, err = Workers(1000, 999, "node", "of the graph")
	assert.EqualError(t, err, "-workers 1,000: more than the 999 nodes of the graph; a worker needs work to do")
	_, err = Workers(2, 1, "task", "of fib(1)")
	assert.EqualError(t, err, "-workers 2: more than the 1 task of fib(1); a worker needs work to do")
}

// TestQueueHelp checks that the help of -queue names every queue of the
// catalog and gives the capacity of each bounded one, the capacity its
// queues refuse items beyond.
func TestQueueHelp(t *testing.T) {
	f := newFlags()
	f.fs.PrintHelp(&f.stdout)
	out := f.stdout.String()
	_, line, ok := strings.Cut(out, "  -queue name\n    \t")
	require.True(t, ok, out)
	line, _, _ = strings.Cut(line, "\n")
	bounded := 0
	for _, e := range catalog.Entries() {
		if e.Capacity == 0 {
			assert.Regexp(t, `(: |, )`+regexp.QuoteMeta(e.Name)+`(,| \(default)`, line, "%s: the name alone", e.Name)
			continue
		}
		bounded++
		q, err := catalog.New[int](e.Name)
		require.NoError(t, err)
		assert.Equal(t, e.Capacity, q.Contract().Capacity, e.Name)
		assert.Contains(t, line, fmt.Sprintf("%s (capacity %s)", e.Name, Group(e.Capacity)), e.Name)
	}
	assert.Positive(t, bounded, "the catalog offers bounded queues")
}

func TestGroup(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 12345: "12,345", 2_500_000: "2,500,000", -12345: "-12,345", -999: "-999", math.MinInt64: "-9,223,372,036,854,775,808"} {
		assert.Equal(t, want, Group(n))
	}
	assert.Equal(t, "18,446,744,073,709,551,615", Group(uint64(math.MaxUint64)))
	assert.Equal(t, "1,234", Group(1234))
	assert.Equal(t, "1 worker", Count(1, "worker"))
	assert.Equal(t, "0 workers", Count(0, "worker"))
	assert.Equal(t, "1,000 nodes", Count(int64(1000), "node"))
}

func TestProgressText(t *testing.T) {
	assert.Equal(t, "0 nodes", ProgressText(0, "node", 0))
	assert.Equal(t, "1 node", ProgressText(1, "node", 0))
	assert.Equal(t, "0 nodes", ProgressText(0, "node", time.Second))
	assert.Equal(t, "250 nodes, 250/s", ProgressText(250, "node", time.Second))
	assert.Equal(t, "2,000,000 tasks, 1.00 M/s", ProgressText(2_000_000, "task", 2*time.Second))
	assert.Equal(t, "1,234,567 nodes, 1.23 M/s", ProgressText(1_234_567, "node", time.Second))
}

// progressRun runs startProgress on a buffer for the given total until
// poll has been called calls times, and returns what it wrote and how
// often it called poll. Poll returns done(i) units on its i-th call, with
// a long text that must be cut.
func progressRun(t *testing.T, total int64, calls int64, done func(i int64) int64) (string, int64) {
	t.Helper()
	var out bytes.Buffer
	var n atomic.Int64
	stop := startProgress(&out, time.Millisecond, total, func(elapsed time.Duration) (int64, string) {
		assert.Positive(t, elapsed)
		i := n.Add(1)
		return done(i), "prog: " + Group(10*i) + strings.Repeat(" x", 50)
	})
	deadline := time.Now().Add(10 * time.Second)
	for n.Load() < calls && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	stop()
	stop() // a second stop does nothing
	called := n.Load()
	time.Sleep(5 * time.Millisecond)
	assert.Equal(t, called, n.Load(), "no call after stop")
	return out.String(), called
}

// erased reports whether s ends by erasing its line, the way the bar
// does: spaces over it, and back to its start.
func erased(s string) bool {
	return regexp.MustCompile(`\r +\r$`).MatchString(s)
}

// checkLines checks that every line drawn in s fits in 80 columns, with a
// text cut to at most maxText columns.
func checkLines(t *testing.T, s string, maxText int) {
	t.Helper()
	assert.NotContains(t, s, "\n", "the line is redrawn in place")
	for _, line := range strings.Split(s, "\r") {
		assert.LessOrEqual(t, len([]rune(line)), 79, "%q", line)
		if _, text, ok := strings.Cut(line, "prog: "); ok {
			text, _, _ = strings.Cut(text, "…")
			assert.LessOrEqual(t, len([]rune("prog: "+text+"…")), maxText, "%q", line)
		}
	}
}

func TestStartProgressBar(t *testing.T) {
	s, _ := progressRun(t, 1000, 3, func(i int64) int64 { return 100 * i })
	assert.True(t, strings.HasPrefix(s, "\rprog: 10 x x"), "%q", s)
	assert.Contains(t, s, "…  10% |█", "the text cut, then the share done and the bar")
	assert.Contains(t, s, "…  20% |██ ")
	assert.Regexp(t, `\|  \[[0-9hms.]+:[0-9hms.]+\]\r`, s, "the time spent and the time left")
	assert.True(t, erased(s), "the line is erased at the end: %q", s)
	checkLines(t, s, maxBarText)

	// A bar that reaches its total erases itself and draws no more.
	s, called := progressRun(t, 1000, 6, func(i int64) int64 { return min(400*i, 1000) })
	assert.GreaterOrEqual(t, called, int64(6))
	assert.Contains(t, s, "40% |")
	assert.Contains(t, s, "80% |")
	assert.Contains(t, s, "\rprog: 30 ", "drawn with the text of the third call")
	assert.NotContains(t, s, "100%")
	assert.NotContains(t, s, "prog: 40", "no drawing once done")
	assert.True(t, erased(s), "%q", s)
}

func TestStartProgressSpinner(t *testing.T) {
	s, _ := progressRun(t, 0, 3, func(i int64) int64 { return 100 * i })
	assert.True(t, strings.HasPrefix(s, "\r⠋ prog: 10 x x"), "%q", s)
	assert.Contains(t, s, "\r⠙ prog: 20 x x", "the spinner turns at each drawing")
	assert.Regexp(t, `…  \[[0-9hms.]+\] \r`, s, "the text cut, then the time spent")
	assert.NotContains(t, s, "%", "no share of an unknown total")
	assert.True(t, erased(s), "the line is erased at the end: %q", s)
	checkLines(t, s, maxSpinnerText)
}

// TestStartProgressOff checks that StartProgress draws nothing, and never
// calls poll, where it is off or its writer is not a terminal.
func TestStartProgressOff(t *testing.T) {
	var out bytes.Buffer
	poll := func(time.Duration) (int64, string) { panic("not called") }
	StartProgress(&out, true, 10, poll)()
	StartProgress(&out, false, 10, poll)()
	StartProgress(&out, true, 0, poll)()
	assert.Empty(t, out.String())
	assert.False(t, IsTerminal(&out))
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer null.Close()
	assert.False(t, IsTerminal(null), "the null device is a character device, but not a terminal")
	stop := StartProgress(null, true, 10, poll)
	time.Sleep(2 * ProgressInterval)
	stop()
}

func TestCounted(t *testing.T) {
	var done atomic.Int64
	var handled atomic.Int64
	const items = 10 * CountEvery
	h := Counted(func(_ context.Context, item int, w *sched.Worker[int]) error {
		handled.Add(1)
		if item > 1 {
			w.Spawn(item-1, item-2)
		}
		return nil
	}, 3, &done)
	newQueue, err := catalog.Factory[int](DefaultQueue)
	require.NoError(t, err)
	roots := make([]int, items)
	st, err := sched.Run(context.Background(), sched.Config[int]{NewQueue: newQueue, Workers: 3}, roots, h)
	require.NoError(t, err)
	assert.Equal(t, int64(items), handled.Load(), "every item reaches the handler")
	assert.Equal(t, int64(items), st.Processed)
	assert.LessOrEqual(t, done.Load(), int64(items))
	assert.Greater(t, done.Load(), int64(items-3*CountEvery), "lags by less than CountEvery per worker")
	assert.Zero(t, done.Load()%CountEvery)
}
