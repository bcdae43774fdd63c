package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// ProgressInterval is how often StartProgress rewrites its line.
const ProgressInterval = 250 * time.Millisecond

// maxLineWidth keeps a progress line within an 80-column terminal, where
// rewriting it with a carriage return works: a longer line wraps, and the
// return goes back to the start of its last row only.
const maxLineWidth = 79

// StartProgress shows a progress line on w while a run goes on, if on is
// true and w is a terminal: every ProgressInterval it calls line with the
// time since the start and rewrites the line in place with the result. The
// returned function stops it and erases the line; a program calls it before
// it prints anything else. Where on is false or w is not a terminal (a file,
// a pipe, /dev/null), StartProgress does nothing and never calls line, so
// logs hold no control characters.
func StartProgress(w io.Writer, on bool, line func(elapsed time.Duration) string) (stop func()) {
	if !on || !IsTerminal(w) {
		return func() {}
	}
	return startProgress(w, ProgressInterval, line)
}

// startProgress is StartProgress on any writer, with any interval.
func startProgress(w io.Writer, interval time.Duration, line func(elapsed time.Duration) string) (stop func()) {
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		start := time.Now()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		printed := false
		for {
			select {
			case <-quit:
				if printed {
					fmt.Fprint(w, "\r\033[K") // erase the line
				}
				return
			case now := <-tick.C:
				s := line(now.Sub(start))
				if r := []rune(s); len(r) > maxLineWidth {
					s = string(r[:maxLineWidth-1]) + "…"
				}
				fmt.Fprint(w, "\r\033[K"+s)
				printed = true
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(quit)
			wg.Wait()
		})
	}
}

// ProgressText formats the progress of a run that has handled done of total
// units (total 0 if unknown) in elapsed: the count, the share of the total,
// the rate and, at that rate, the time left. For example:
//
//	1,234,567 / 5,000,000 nodes (24.7%), 1.23 M/s, ETA 3.1s
func ProgressText(done, total int64, unit string, elapsed time.Duration) string {
	var b strings.Builder
	if total > 0 {
		fmt.Fprintf(&b, "%s / %s (%.1f%%)", Group(done), Count(total, unit), 100*float64(done)/float64(total))
	} else {
		b.WriteString(Count(done, unit))
	}
	s := elapsed.Seconds()
	if s <= 0 || done <= 0 {
		return b.String()
	}
	rate := float64(done) / s
	fmt.Fprintf(&b, ", %.2f M/s", rate/1e6)
	if total > 0 {
		b.WriteString(", ETA " + eta(float64(max(total-done, 0))/rate))
	}
	return b.String()
}

// eta formats a time left of s seconds.
func eta(s float64) string {
	const day = 24 * 60 * 60
	switch {
	case s >= 1e15*day: // beyond what Group takes
		return "forever"
	case s >= 2*day:
		return Group(int64(s/day)) + " days"
	case s >= 60:
		return time.Duration(s * float64(time.Second)).Round(time.Second).String()
	}
	return time.Duration(s * float64(time.Second)).Round(100 * time.Millisecond).String()
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
