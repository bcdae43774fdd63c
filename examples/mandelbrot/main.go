package main

import (
	"bufio"
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/worksteal/wsq/examples/internal/cli"
	"github.com/worksteal/wsq/par"
	"github.com/worksteal/wsq/sched"
)

// synopsis is the one-line description -h prints first.
const synopsis = "mandelbrot renders the Mandelbrot set with parallel loops and checks the image against a serial rendering."

// maxSide bounds -width and -height: 16,384² pixels take 512 MB of
// counts, twice (the parallel image and the serial one).
const maxSide = 16_384

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is what the flags select.
type config struct {
	width, height int
	iter          int
	grain         int
	workers       int
	out           string
	progress      bool
}

// parseFlags defines the flags on fs, parses args and checks the flags
// together.
func parseFlags(fs *cli.FlagSet, args []string) (config, error) {
	var c config
	fs.IntRangeVar(&c.width, "width", 1600, 1, maxSide, "width of the image in pixels")
	fs.IntRangeVar(&c.height, "height", 1200, 1, maxSide, "height of the image in pixels")
	fs.IntRangeVar(&c.iter, "iter", 1000, 1, 1_000_000, "most iterations per pixel")
	fs.IntRangeVar(&c.grain, "grain", 0, 0, maxSide, "fewest rows a part of the loop takes; 0 splits by demand alone")
	fs.WorkersVar(&c.workers)
	fs.StringVar(&c.out, "out", "", "write the image to this PNG file")
	fs.ProgressVar(&c.progress)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	var err error
	c.workers, err = cli.Workers(c.workers, int64(c.height), "row", "of the image")
	return c, err
}

// run is the whole program; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := cli.New("mandelbrot", synopsis, stdout, stderr)
	c, err := parseFlags(fs, args)
	if err != nil {
		return fs.Exit(err)
	}
	fmt.Fprintf(stdout, "mandelbrot: %s×%s pixels, at most %s each, %s\n",
		cli.Group(c.width), cli.Group(c.height), cli.Count(c.iter, "iteration"), cli.Count(c.workers, "worker"))

	im := newFrame(c)
	want := newFrame(c)
	start := time.Now()
	want.rows(0, c.height)
	serial := time.Since(start)
	wantTotal := want.total(0, c.height)
	fmt.Fprintf(stdout, "serial: %s\n", cli.Duration(serial))

	res, err := renderParallel(context.Background(), c, im, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "mandelbrot:", err)
		return 1
	}
	fmt.Fprintln(stdout, parallelLine(serial, res))

	if i := firstDifference(im.counts, want.counts); i >= 0 {
		fmt.Fprintf(stdout, "FAILED: pixel (%d, %d) took %d iterations, %d serially\n", i%c.width, i/c.width, im.counts[i], want.counts[i])
		return 1
	}
	if res.total != wantTotal {
		fmt.Fprintf(stdout, "FAILED: the reduction counts %s iterations, the serial sum %s\n", cli.Group(res.total), cli.Group(wantTotal))
		return 1
	}
	if c.out != "" {
		if err := writePNG(c.out, im); err != nil {
			fmt.Fprintln(stderr, "mandelbrot:", err)
			return 1
		}
		fmt.Fprintf(stdout, "wrote %s\n", c.out)
	}
	fmt.Fprintf(stdout, "verified: the parallel image equals the serial one, all %s (%s)\n",
		cli.Count(c.width*c.height, "pixel"), cli.Count(wantTotal, "iteration"))
	return 0
}

// frame is an image of the set: for each pixel, the iterations it took
// to escape, or iter if it did not.
type frame struct {
	width, height, iter int
	counts              []uint32 // row by row
}

func newFrame(c config) *frame {
	return &frame{width: c.width, height: c.height, iter: c.iter, counts: make([]uint32, c.width*c.height)}
}

// rows renders the rows from lo to hi.
func (im *frame) rows(lo, hi int) {
	for y := lo; y < hi; y++ {
		// The region [-2.2, 0.8] × [-1.2, 1.2], pixel centres.
		ci := 1.2 - 2.4*(float64(y)+0.5)/float64(im.height)
		row := im.counts[y*im.width : (y+1)*im.width]
		for x := range row {
			cr := -2.2 + 3.0*(float64(x)+0.5)/float64(im.width)
			row[x] = escape(cr, ci, im.iter)
		}
	}
}

// total sums the counts of the rows from lo to hi.
func (im *frame) total(lo, hi int) int64 {
	var s int64
	for _, n := range im.counts[lo*im.width : hi*im.width] {
		s += int64(n)
	}
	return s
}

// escape returns the iterations of z ← z² + c, from z = 0, before |z|
// exceeds 2, or maxIter if it does not.
func escape(cr, ci float64, maxIter int) uint32 {
	zr, zi := 0.0, 0.0
	k := 0
	for ; k < maxIter && zr*zr+zi*zi <= 4; k++ {
		zr, zi = zr*zr-zi*zi+cr, 2*zr*zi+ci
	}
	return uint32(k)
}

// result is the outcome of a parallel rendering.
type result struct {
	elapsed time.Duration
	total   int64 // the iterations of all pixels, by par.ReduceRange
	stats   sched.Stats
}

// renderParallel renders im on a new pool as c says: par.ForRange over
// the rows, then par.ReduceRange for the total count. It shows progress
// on stderr while it runs (see cli.StartProgress).
func renderParallel(ctx context.Context, c config, im *frame, stderr io.Writer) (result, error) {
	pool, err := sched.NewPool(sched.PoolConfig{Workers: c.workers})
	if err != nil {
		return result{}, err
	}
	var done atomic.Int64 // rows rendered
	stopProgress := cli.StartProgress(stderr, c.progress, int64(c.height), func(elapsed time.Duration) (int64, string) {
		n := done.Load()
		return n, "mandelbrot: " + cli.ProgressText(n, "row", elapsed)
	})
	var r result
	start := time.Now()
	err = pool.Do(ctx, func(t *sched.Task) error {
		par.Loop{Grain: c.grain}.ForRange(t, c.height, func(t *sched.Task, lo, hi int) {
			im.rows(lo, hi)
			done.Add(int64(hi - lo))
		})
		r.total = par.ReduceRange(t, c.height, 0, func(t *sched.Task, lo, hi int) int64 { return im.total(lo, hi) },
			func(a, b int64) int64 { return a + b })
		return nil
	})
	r.elapsed = time.Since(start)
	r.stats = pool.Close()
	stopProgress()
	return r, err
}

// parallelLine describes the parallel rendering res beside the serial
// time: the speedup, unless a time was too short to measure, and the tasks
// the loops made.
func parallelLine(serial time.Duration, res result) string {
	ratio := "serial too short to compare"
	if serial > 0 && res.elapsed > 0 {
		ratio = fmt.Sprintf("%.2fx serial", serial.Seconds()/res.elapsed.Seconds())
	}
	return fmt.Sprintf("parallel loops: %s (%s), %s, %s",
		cli.Duration(res.elapsed), ratio, cli.Count(res.stats.Processed, "task"), cli.Count(res.stats.Steals, "steal"))
}

// firstDifference returns the first index at which xs and ys differ, or -1.
func firstDifference(xs, ys []uint32) int {
	for i := range xs {
		if xs[i] != ys[i] {
			return i
		}
	}
	return -1
}

// writePNG writes im to the file name as a grey PNG: the set black, the
// rest the darker the longer it took to escape.
func writePNG(name string, im *frame) error {
	img := image.NewGray(image.Rect(0, 0, im.width, im.height))
	for i, n := range im.counts {
		v := uint8(0)
		if int(n) < im.iter {
			v = uint8(255 - 255*uint32(n)/uint32(im.iter))
		}
		img.Pix[i] = v
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := png.Encode(w, img); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
