package cli

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/catalog"
)

// checked defines a flag with the flag package's Func: set checks a value
// and stores it. The help shows the flag's type as typ and its default as
// def. An error of set becomes the message Parse returns, as in "-n 100:
// out of range; want 0 to 90".
func (fs *FlagSet) checked(name, typ, def, usage string, set func(s string) error) {
	fs.Func(name, usage, func(s string) error {
		err := set(s)
		if err != nil {
			if s == "" || strings.ContainsAny(s, " \t") {
				s = strconv.Quote(s)
			}
			fs.setErr = fmt.Errorf("-%s %s: %w", name, s, err)
		}
		return err
	})
	fs.Lookup(name).DefValue = def
	fs.types[name] = typ
}

// digits drops the commas or underscores that may group an integer's
// digits, as in 1,000,000 or 1_000_000.
var digits = strings.NewReplacer(",", "", "_", "")

// intRangeVar defines an integer flag that accepts lo to hi, with its
// digits grouped or not; the help appends the range to usage.
func intRangeVar[T ~int | ~int64](fs *FlagSet, p *T, name string, value, lo, hi T, usage string) {
	*p = value
	fs.checked(name, "int", Group(value), usage+"; "+describeRange(lo, hi), func(s string) error {
		n, err := strconv.ParseInt(digits.Replace(s), 10, 64)
		switch {
		case err != nil:
			return errors.New("not an integer")
		case n < int64(lo) || n > int64(hi):
			return errors.New("out of range; want " + describeRange(lo, hi))
		}
		*p = T(n)
		return nil
	})
}

// describeRange says which values lo..hi allows, for messages and the help.
// A hi of math.MaxInt or math.MaxInt64 means no upper limit.
func describeRange[T ~int | ~int64](lo, hi T) string {
	if int64(hi) == math.MaxInt || int64(hi) == math.MaxInt64 {
		return "at least " + Group(lo)
	}
	return Group(lo) + " to " + Group(hi)
}

// IntRangeVar defines an int flag that accepts lo to hi; the help appends
// the range to usage. A hi of math.MaxInt means no upper limit. The value
// may group its digits with commas or underscores.
func (fs *FlagSet) IntRangeVar(p *int, name string, value, lo, hi int, usage string) {
	intRangeVar(fs, p, name, value, lo, hi, usage)
}

// Int64RangeVar is IntRangeVar for an int64 flag; a hi of math.MaxInt64
// means no upper limit.
func (fs *FlagSet) Int64RangeVar(p *int64, name string, value, lo, hi int64, usage string) {
	intRangeVar(fs, p, name, value, lo, hi, usage)
}

// WorkersVar defines -workers, the number of workers: 0 (the default) means
// GOMAXPROCS, and MaxWorkers is the most. The program resolves the value
// with Workers once it knows how much work there is.
func (fs *FlagSet) WorkersVar(p *int) {
	fs.IntRangeVar(p, "workers", 0, 0, MaxWorkers, "number of workers, no more than there is work for; 0 means GOMAXPROCS")
}

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
	fs.checked("proportion", "auto|float", ProportionString(value), usage, func(s string) error {
		if s == Auto {
			*p = 0
			return nil
		}
		x, err := strconv.ParseFloat(s, 64)
		switch {
		case err != nil:
			return errors.New("not a number, nor auto")
		case !wsq.ValidProportion(x):
			return errors.New("outside (0, 1]; a steal takes a part of a queue")
		}
		*p = x
		return nil
	})
}

// DefaultQueue is the default of -queue: blockq, the queue the module
// recommends.
const DefaultQueue = "bq"

// QueueVar defines -queue, the name of a queue implementation of package
// catalog, with default DefaultQueue. The help lists the names and gives
// the capacity of each bounded queue, which refuses items beyond it.
func (fs *FlagSet) QueueVar(p *string) {
	*p = DefaultQueue
	fs.checked("queue", "name", DefaultQueue, "queue implementation: "+queueNames(), func(s string) error {
		if _, ok := catalog.Lookup(s); !ok {
			return errors.New("unknown queue; known queues: " + strings.Join(catalog.Names(), ", "))
		}
		*p = s
		return nil
	})
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

// ChoiceVar defines a flag of fs whose value is one of choices, given by its
// String. The help shows the choices as the flag's type, as in
// master|random.
func ChoiceVar[T fmt.Stringer](fs *FlagSet, p *T, name string, value T, choices []T, usage string) {
	*p = value
	names := make([]string, len(choices))
	for i, c := range choices {
		names[i] = c.String()
	}
	fs.checked(name, strings.Join(names, "|"), value.String(), usage, func(s string) error {
		i := slices.Index(names, s)
		if i < 0 {
			return errors.New("unknown value; want " + orList(names))
		}
		*p = choices[i]
		return nil
	})
}

// orList joins names as English lists alternatives: "a or b", "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	last := len(names) - 1
	return strings.Join(names[:last], ", ") + " or " + names[last]
}

// ProgressVar defines -progress, which turns the progress line of
// StartProgress on (the default) or off.
func (fs *FlagSet) ProgressVar(p *bool) {
	fs.BoolVar(p, "progress", true, "show a progress line on stderr during long runs, if stderr is a terminal")
}
