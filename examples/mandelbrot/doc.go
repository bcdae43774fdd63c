// Command mandelbrot renders the Mandelbrot set with sched's parallel
// loops, and checks the image pixel for pixel against a serial rendering:
// a loop over the rows of an image, whose rows cost very different
// amounts, with no grain to choose.
//
// Usage:
//
//	go run ./examples/mandelbrot [-width 1,600] [-height 1,200] [-iter 1,000]
//	                             [-grain 0] [-workers 0] [-out FILE]
//
// Flags:
//
//	-width     width of the image in pixels, 1 to 16,384 (default 1,600)
//	-height    height of the image in pixels, 1 to 16,384 (default 1,200)
//	-iter      most iterations per pixel, 1 to 1,000,000 (default 1,000)
//	-grain     fewest rows a part of the loop takes (par.Loop's Grain);
//	           0, the default, splits by demand alone
//	-workers   number of workers, at most the rows; 0 (the default) means
//	           GOMAXPROCS
//	-out       write the image to this PNG file, grey: the set black
//	-progress  show a progress line on stderr (default true)
//	-h         print a one-line description and the flags, and exit
//
// The progress line shows the rows rendered, the rate and the expected
// time left; it is shown only when stderr is a terminal. Numbers are
// printed grouped by thousands, and may be given so.
//
// # The loops
//
// A pixel's cost is the number of iterations before it escapes: a few
// outside the set, -iter inside it. So the rows through the set cost most,
// and equal static chunks of rows would leave workers idle. The program
// renders the rows with one call:
//
//	par.Loop{Grain: c.grain}.ForRange(t, c.height, func(t *sched.Task, lo, hi int) {
//		im.rows(lo, hi)
//		done.Add(int64(hi - lo))
//	})
//
// The loop splits its rows when other workers look for work, and the
// workers that finish first take a share of what the others have left.
// Then par.ReduceRange sums the iterations of all pixels, in an order
// fixed by the rows.
//
// # Verification
//
// The program renders the image serially first, and times it. Then it
// renders it with the loops and prints the speedup. It checks that both
// images hold the same count at every pixel, and that the reduction's sum
// equals the serial sum. It prints a line starting with "verified:" and
// exits 0 on success, exits 1 if a check fails, and exits 2 on bad flags,
// with one message and the hint "run with -h for help".
package main
