package interleave

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Names makes traces readable: it names the atomic variables and formats the
// values a program's threads load and store. Both functions are optional and
// may return "" to fall back to the default (the variable's type and
// address, the value's %v). They run while the execution is traced, in the
// thread that performs the operation, and must not use atomicx themselves
// (use Plain to follow pointers).
type Names struct {
	// Object names an atomic variable or mutex, such as "ctl" or "n3.next".
	Object func(obj any) string
	// Value formats v, a value loaded from or stored into obj.
	Value func(obj, v any) string
}

// traceLine is the operation being traced: its scheduling point has been
// passed, its operands arrive with Result.
type traceLine struct {
	set  bool
	tick int64
	t    *thread
	kind Kind
	obj  any
}

func (e *execution) startLine(t *thread, k Kind, obj any) {
	e.flushLine()
	e.line = traceLine{set: true, tick: e.clock, t: t, kind: k, obj: obj}
}

// result completes the traced line with the operation's operands.
func (e *execution) result(vals []any) {
	l := e.line
	if !l.set {
		return
	}
	e.line.set = false
	v := func(i int) string {
		if i >= len(vals) {
			return "?"
		}
		return e.valueName(l.obj, vals[i])
	}
	var op string
	switch l.kind {
	case Load:
		op = "Load() = " + v(0)
	case Store, StoreRelease:
		op = l.kind.String() + "(" + v(0) + ")"
	case Swap:
		op = fmt.Sprintf("Swap(%s) = %s", v(0), v(1))
	case CompareAndSwap:
		op = fmt.Sprintf("CompareAndSwap(%s, %s) = %v", v(0), v(1), vals[2])
	default:
		op = l.kind.String() + "()"
	}
	e.writeLine(l.tick, l.t, e.objName(l.obj)+"."+op)
}

// flushLine writes a traced operation whose operands never arrived.
func (e *execution) flushLine() {
	if l := e.line; l.set {
		e.line.set = false
		e.writeLine(l.tick, l.t, e.objName(l.obj)+"."+l.kind.String()+"()")
	}
}

// note adds an event of thread t (a call, a return, a panic) to the trace.
func (e *execution) note(t *thread, s string) {
	e.flushLine()
	e.writeLine(0, t, s)
}

func (e *execution) writeLine(tick int64, t *thread, s string) {
	if tick > 0 {
		fmt.Fprintf(e.trace, "%5d  ", tick)
	} else {
		e.trace.WriteString("       ")
	}
	name := "-"
	if t != nil {
		name = t.name
	}
	fmt.Fprintf(e.trace, "%-8s %s\n", name, s)
}

func (e *execution) objName(obj any) string {
	if e.names.Object != nil {
		if s := e.names.Object(obj); s != "" {
			return s
		}
	}
	if obj == nil {
		return "<nil>"
	}
	rv := reflect.ValueOf(obj)
	name := rv.Type().String()
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	if rv.Kind() == reflect.Pointer {
		return fmt.Sprintf("%s@%#x", name, rv.Pointer())
	}
	return name
}

func (e *execution) valueName(obj, v any) string {
	if e.names.Value != nil {
		if s := e.names.Value(obj, v); s != "" {
			return s
		}
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return "nil"
		}
		return fmt.Sprintf("%#x", rv.Pointer())
	}
	return fmt.Sprint(v)
}

// A schedule is written as one character per scheduling decision, the
// number of the thread chosen: 0-9, then a-z.
const scheduleDigits = "0123456789abcdefghijklmnopqrstuvwxyz"

// MaxThreads is the largest number of threads an execution may have.
const MaxThreads = len(scheduleDigits)

func scheduleDigit(id int) byte { return scheduleDigits[id] }

// encodeSchedule writes a run of 8 or more decisions for one thread as the
// thread's digit, a star and the count: "001111111111" is "00 1*10".
func encodeSchedule(ids []byte) string {
	var parts []string
	plain := false // whether the last part is a run of digits
	for i := 0; i < len(ids); {
		j := i
		for j < len(ids) && ids[j] == ids[i] {
			j++
		}
		switch {
		case j-i >= 8:
			parts = append(parts, fmt.Sprintf("%c*%d", ids[i], j-i))
			plain = false
		case plain:
			parts[len(parts)-1] += string(ids[i:j])
		default:
			parts = append(parts, string(ids[i:j]))
			plain = true
		}
		i = j
	}
	return strings.Join(parts, " ")
}

// parseSchedule reads a schedule as encodeSchedule writes it.
func parseSchedule(s string) ([]int, error) {
	ids := make([]int, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' {
			continue
		}
		j := strings.IndexByte(scheduleDigits, c)
		if j < 0 {
			return nil, fmt.Errorf("interleave: bad schedule character %q in %q", c, s)
		}
		n := 1
		if i+1 < len(s) && s[i+1] == '*' {
			k := i + 2
			for k < len(s) && '0' <= s[k] && s[k] <= '9' {
				k++
			}
			var err error
			if n, err = strconv.Atoi(s[i+2 : k]); err != nil {
				return nil, fmt.Errorf("interleave: bad repeat count in schedule %q", s)
			}
			i = k - 1
		}
		for ; n > 0; n-- {
			ids = append(ids, j)
		}
	}
	return ids, nil
}
