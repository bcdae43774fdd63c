package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/catalog"
)

// typed is a flag value that names its type for the help.
type typed interface {
	typeName() string
}

// integer is the type of the values of IntRangeVar and Int64RangeVar.
type integer interface {
	~int | ~int64
}

// intValue is an integer flag restricted to lo..hi. It accepts digits
// grouped with commas or underscores, as in 1,000,000 or 1_000_000.
type intValue[T integer] struct {
	fs     *FlagSet
	name   string
	p      *T
	lo, hi T
}

func (v *intValue[T]) String() string {
	if v.p == nil {
		return "0"
	}
	return Group(*v.p)
}

func (v *intValue[T]) Set(s string) error {
	n, err := strconv.ParseInt(strings.NewReplacer(",", "", "_", "").Replace(s), 10, 64)
	switch {
	case err != nil:
		return v.fs.fail(v.name, s, "not an integer")
	case n < int64(v.lo) || n > int64(v.hi):
		return v.fs.fail(v.name, s, "out of range; want "+describeRange(v.lo, v.hi))
	}
	*v.p = T(n)
	return nil
}

func (v *intValue[T]) typeName() string { return "int" }

// describeRange says which values lo..hi allows, for messages and the help.
// A hi of math.MaxInt or math.MaxInt64 means no upper limit.
func describeRange[T integer](lo, hi T) string {
	if int64(hi) == math.MaxInt || int64(hi) == math.MaxInt64 {
		return "at least " + Group(lo)
	}
	return Group(lo) + " to " + Group(hi)
}

// fail records and returns the error of a bad value s for the named flag.
func (fs *FlagSet) fail(name, s, problem string) error {
	if s == "" || strings.ContainsAny(s, " \t") {
		s = strconv.Quote(s)
	}
	fs.setErr = fmt.Errorf("-%s %s: %s", name, s, problem)
	return fs.setErr
}

// IntRangeVar defines an int flag that accepts lo to hi; the help appends
// the range to usage. A hi of math.MaxInt means no upper limit.
func (fs *FlagSet) IntRangeVar(p *int, name string, value, lo, hi int, usage string) {
	*p = value
	fs.Var(&intValue[int]{fs: fs, name: name, p: p, lo: lo, hi: hi}, name, usage+"; "+describeRange(lo, hi))
}

// Int64RangeVar is IntRangeVar for an int64 flag; a hi of math.MaxInt64
// means no upper limit.
func (fs *FlagSet) Int64RangeVar(p *int64, name string, value, lo, hi int64, usage string) {
	*p = value
	fs.Var(&intValue[int64]{fs: fs, name: name, p: p, lo: lo, hi: hi}, name, usage+"; "+describeRange(lo, hi))
}

// WorkersVar defines -workers, the number of workers: 0 (the default) means
// GOMAXPROCS, and MaxWorkers is the most. The program resolves the value
// with Workers once it knows how much work there is.
func (fs *FlagSet) WorkersVar(p *int) {
	fs.IntRangeVar(p, "workers", 0, 0, MaxWorkers, "number of workers, no more than there is work for; 0 means GOMAXPROCS")
}

// proportionValue is a steal proportion, valid by wsq.ValidProportion, or
// auto (zero): each steal chooses, as sched's zero Config.Proportion says.
type proportionValue struct {
	fs *FlagSet
	p  *float64
}

func (v *proportionValue) String() string {
	if v.p == nil {
		return Auto
	}
	return ProportionString(*v.p)
}

func (v *proportionValue) Set(s string) error {
	if s == Auto {
		*v.p = 0
		return nil
	}
	x, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil:
		return v.fs.fail("proportion", s, "not a number, nor auto")
	case !wsq.ValidProportion(x):
		return v.fs.fail("proportion", s, "outside (0, 1]; a steal takes a part of a queue")
	}
	*v.p = x
	return nil
}

func (v *proportionValue) typeName() string { return "auto|float" }

// Auto is the -proportion that lets each steal choose: zero in
// sched.Config.Proportion.
const Auto = "auto"

// ProportionString returns p as a -proportion flag writes it: auto for
// zero, else the number.
func ProportionString(p float64) string {
	if p == 0 {
		return Auto
	}
	return strconv.FormatFloat(p, 'g', -1, 64)
}

// ProportionVar defines -proportion, the part of a victim's queue one steal
// takes: auto (zero), or a number in (0, 1] (wsq.ValidProportion).
func (fs *FlagSet) ProportionVar(p *float64, value float64, usage string) {
	*p = value
	fs.Var(&proportionValue{fs: fs, p: p}, "proportion", usage)
}

// queueValue is the name of a queue implementation of package catalog.
type queueValue struct {
	fs *FlagSet
	p  *string
}

func (v *queueValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

func (v *queueValue) Set(s string) error {
	if _, ok := catalog.Lookup(s); !ok {
		return v.fs.fail("queue", s, "unknown queue; known queues: "+strings.Join(catalog.Names(), ", "))
	}
	*v.p = s
	return nil
}

func (v *queueValue) typeName() string { return "name" }

// DefaultQueue is the default of -queue: blockq, the queue the module
// recommends.
const DefaultQueue = "bq"

// QueueVar defines -queue, the name of a queue implementation of package
// catalog, with default DefaultQueue. The help lists the names and gives
// the capacity of each bounded queue, which refuses items beyond it.
func (fs *FlagSet) QueueVar(p *string) {
	*p = DefaultQueue
	fs.Var(&queueValue{fs: fs, p: p}, "queue", "queue implementation: "+queueNames())
}

// queueNames lists the names of package catalog, each bounded queue with
// its capacity, as in "tf-bd (capacity 256)".
func queueNames() string {
	var names []string
	for _, e := range catalog.Entries() {
		if e.Capacity > 0 {
			names = append(names, fmt.Sprintf("%s (capacity %s)", e.Name, Group(e.Capacity)))
		} else {
			names = append(names, e.Name)
		}
	}
	return strings.Join(names, ", ")
}

// choiceValue is one of a list of values, selected by name.
type choiceValue[T fmt.Stringer] struct {
	fs      *FlagSet
	name    string
	p       *T
	choices []T
}

func (v *choiceValue[T]) String() string {
	if v.p == nil {
		return ""
	}
	return (*v.p).String()
}

func (v *choiceValue[T]) Set(s string) error {
	for _, c := range v.choices {
		if c.String() == s {
			*v.p = c
			return nil
		}
	}
	return v.fs.fail(v.name, s, "unknown value; want "+v.names(" or "))
}

func (v *choiceValue[T]) typeName() string { return v.names("|") }

func (v *choiceValue[T]) names(sep string) string {
	names := make([]string, len(v.choices))
	for i, c := range v.choices {
		names[i] = c.String()
	}
	if sep == " or " && len(names) > 2 {
		return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	}
	return strings.Join(names, sep)
}

// ChoiceVar defines a flag of fs whose value is one of choices, given by its
// String.
func ChoiceVar[T fmt.Stringer](fs *FlagSet, p *T, name string, value T, choices []T, usage string) {
	*p = value
	fs.Var(&choiceValue[T]{fs: fs, name: name, p: p, choices: choices}, name, usage)
}

// ProgressVar defines -progress, which turns the progress line of
// StartProgress on (the default) or off.
func (fs *FlagSet) ProgressVar(p *bool) {
	fs.BoolVar(p, "progress", true, "show a progress line on stderr during long runs, if stderr is a terminal")
}
