package cli

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// ProgressInterval is how often StartProgress redraws its bar.
const ProgressInterval = 250 * time.Millisecond

// The text before a bar, or after a spinner, takes at most these columns.
// The rest of an 80-column line is left to the bar and its times: a line
// that wraps is not redrawn in place. The bar itself fits the terminal.
const (
	maxBarText     = 50
	maxSpinnerText = 64
)

// StartProgress shows a progress bar on w while a run goes on, if on is
// true and w is a terminal. The bar is github.com/schollz/progressbar's.
// Every ProgressInterval it calls poll with the time since the start, and
// poll returns the units done so far and a text to show before the bar.
// With a total above 0, the bar shows the share of it done, the time
// spent and the time left; with a total of 0 (unknown), a spinner and the
// time spent. The returned function stops the bar and erases it; a program
// calls it before it prints anything else. Where on is false or w is not a
// terminal (a file, a pipe, /dev/null), StartProgress does nothing and
// never calls poll, so logs hold no control characters.
func StartProgress(w io.Writer, on bool, total int64, poll func(elapsed time.Duration) (done int64, text string)) (stop func()) {
	if !on || !IsTerminal(w) {
		return func() {}
	}
	return startProgress(w, ProgressInterval, total, poll)
}

// startProgress is StartProgress on any writer, with any interval.
func startProgress(w io.Writer, interval time.Duration, total int64, poll func(elapsed time.Duration) (done int64, text string)) (stop func()) {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSpinnerType(14),
		// The spinner turns at each drawing, and the bar starts no
		// goroutine of its own.
		progressbar.OptionSetSpinnerChangeInterval(0),
		progressbar.OptionClearOnFinish(),
	}
	maxText := maxBarText
	if total > 0 {
		opts = append(opts, progressbar.OptionFullWidth())
	} else {
		total, maxText = -1, maxSpinnerText // -1: unknown
	}
	bar := progressbar.NewOptions64(total, opts...)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		start := time.Now()
		bar.StartWithoutRender()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				if !bar.IsFinished() { // a finished bar has erased itself
					_ = bar.Clear()
				}
				_ = bar.Exit()
				return
			case now := <-tick.C:
				done, text := poll(now.Sub(start))
				if r := []rune(text); len(r) > maxText {
					text = string(r[:maxText-1]) + "…"
				}
				bar.Describe(text) // and draws the bar
				if total > 0 {
					_ = bar.Set64(min(done, total)) // draws it again if the share changed
				}
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

// ProgressText formats the progress of a run that has handled done units
// in elapsed, for the text before a progress bar: the count and the rate.
// For example:
//
//	1,234,567 nodes, 1.23 M/s
func ProgressText(done int64, unit string, elapsed time.Duration) string {
	if done <= 0 || elapsed <= 0 {
		return Count(done, unit)
	}
	return Count(done, unit) + ", " + Rate(done, elapsed, "")
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
