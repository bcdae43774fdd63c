package sched

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// PanicError is the value that Run, Pool.Do, Group.Wait and Future.Join
// panic with when a handler or task panicked. The panic travels to the
// goroutine that waits for the work, as in a plain function call, instead
// of crashing the process from a worker. A caller may recover it, and read
// the original value and stack.
//
// A panic that passes through several waits keeps the first PanicError:
// Value and Stack describe the original panic.
type PanicError struct {
	// Value is the value the handler or task passed to panic.
	Value any
	// Stack is the stack of the goroutine that panicked, at the moment of
	// the panic, as runtime/debug.Stack formats it.
	Stack []byte
}

// Error returns the panic's value and the stack at the panic, so that a
// program that does not recover it prints both when it crashes.
func (e *PanicError) Error() string {
	return fmt.Sprintf("sched: task panicked: %v\n\nstack of the panic:\n%s", e.Value, e.Stack)
}

// Unwrap returns the panic's value if it is an error, and nil otherwise, so
// that errors.Is and errors.As see through a PanicError.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// failure is how a handler or task ended abnormally: by a panic, or by
// runtime.Goexit.
type failure struct {
	goexit bool
	panic  *PanicError
}

// recovered returns the failure for v, what recover returned in a deferred
// call of a function that did not return normally. Nil means that it
// called runtime.Goexit: since Go 1.21, panic(nil) panics with a
// *runtime.PanicNilError. Anything else is a panic, unless a deferred
// call panicked while a Goexit unwound the function: Go goes on with the
// Goexit once the panic is recovered, so the function ends by Goexit. The
// deferred call itself must call recovered, so that the stack it records
// is the panic's.
func recovered(v any) *failure {
	if v == nil || goexiting() {
		return &failure{goexit: true}
	}
	if pe, ok := v.(*PanicError); ok {
		return &failure{panic: pe} // raised again by a wait: keep the original
	}
	return &failure{panic: &PanicError{Value: v, Stack: debug.Stack()}}
}

// goexiting reports whether the panic that the calling deferred call
// recovers was raised while runtime.Goexit unwound the function that
// deferred the call. The runtime then resumes the Goexit after the
// recovery. The stack shows it: above the deferred call's function, the
// panic passed through runtime.Goexit. A panic of a task that a deferred
// call runs while a Goexit unwinds the goroutine below the function does
// not: that Goexit lies below.
func goexiting() bool {
	var pcs [256]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs[:])])
	var prev, handler string
	for {
		f, more := frames.Next()
		switch {
		case handler == "" && f.Function == "runtime.gopanic":
			// The deferred call that recovers the panic, a closure: its
			// function's name is the closure's, less ".funcN".
			i := strings.LastIndex(prev, ".func")
			if i < 0 {
				return false
			}
			handler = prev[:i]
		case handler != "" && f.Function == "runtime.Goexit":
			return true
		case handler != "" && f.Function == handler:
			return false
		}
		if !more {
			return false
		}
		prev = f.Function
	}
}

// raise repeats the failure in the calling goroutine; it does nothing for a
// nil failure.
func (f *failure) raise() {
	switch {
	case f == nil:
	case f.goexit:
		runtime.Goexit()
	default:
		panic(f.panic)
	}
}
