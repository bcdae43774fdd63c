package main

import (
	"fmt"
	"image/color"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var (
	paperColor   = color.RGBA{R: 90, G: 90, B: 90, A: 255}
	ceilingColor = color.RGBA{R: 0, G: 0, B: 0, A: 255}
	dashed       = []vg.Length{vg.Points(5), vg.Points(3)}
)

// newPlot returns a plot with a title, axis labels and the legend on top.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	return p
}

// addCurves draws our measurements, one line with markers per curve.
func addCurves(p *plot.Plot, cs []curve) error {
	for i, c := range cs {
		l, s, err := plotter.NewLinePoints(xys(c.pts))
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i / len(plotutil.DefaultColors))
		s.Color = plotutil.Color(i)
		s.Shape = plotutil.Shape(i)
		p.Add(l, s)
		p.Legend.Add(c.name, l, s)
	}
	return nil
}

// xys converts points for gonum/plot.
func xys(pts []xy) plotter.XYs {
	out := make(plotter.XYs, len(pts))
	for i, q := range pts {
		out[i] = plotter.XY{X: q.x, Y: q.y}
	}
	return out
}

// addPaperLine draws a dashed grey reference line from the paper.
func addPaperLine(p *plot.Plot, label string, pts ...xy) error {
	return addReference(p, label, paperColor, pts...)
}

// addReference draws a dashed reference line.
func addReference(p *plot.Plot, label string, c color.Color, pts ...xy) error {
	l, err := plotter.NewLine(xys(pts))
	if err != nil {
		return err
	}
	l.Color = c
	l.Dashes = dashed
	l.Width = vg.Points(1.5)
	p.Add(l)
	p.Legend.Add(label, l)
	return nil
}

// addPaperPoints marks single values the paper states.
func addPaperPoints(p *plot.Plot, label string, pts ...xy) error {
	s, err := plotter.NewScatter(xys(pts))
	if err != nil {
		return err
	}
	s.Color = paperColor
	s.Shape = draw.CrossGlyph{}
	s.Radius = vg.Points(5)
	p.Add(s)
	p.Legend.Add(label, s)
	return nil
}

// xTicks labels the x values of the curves, such as worker counts, and
// nothing else.
type xTicks []curve

// Ticks implements plot.Ticker.
func (cs xTicks) Ticks(lo, hi float64) []plot.Tick {
	seen := map[float64]bool{}
	var ticks []plot.Tick
	for _, c := range cs {
		for _, q := range c.pts {
			if !seen[q.x] && q.x >= lo && q.x <= hi {
				seen[q.x] = true
				ticks = append(ticks, plot.Tick{Value: q.x, Label: strconv.FormatFloat(q.x, 'f', -1, 64)})
			}
		}
	}
	return ticks
}

func save(p *plot.Plot, dir, file string) error {
	return p.Save(9*vg.Inch, 5.5*vg.Inch, filepath.Join(dir, file))
}

// writePlots draws every figure the results allow into dir and returns the
// names of the files it wrote.
func (r *report) writePlots(dir string) (map[string]bool, error) {
	written := map[string]bool{}
	type job struct {
		file string
		draw func() (*plot.Plot, error)
	}
	var jobs []job
	if cs := r.pushCurves(); len(cs) > 0 {
		jobs = append(jobs, job{"push.png", func() (*plot.Plot, error) {
			p := newPlot("Push latency by batch size", "batch size (items)", "ns per batch push")
			p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
			p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
			if err := addCurves(p, cs); err != nil {
				return nil, err
			}
			if err := addPaperLine(p, "paper: lfqueue stays below this", xy{1, paper.pushLFBound}, xy{1024, paper.pushLFBound}); err != nil {
				return nil, err
			}
			return p, addPaperPoints(p, "paper: Taskflow at 1024", xy{1024, paper.pushTaskflow1024})
		}})
	}
	for _, n := range distinctInts(r.bench("Steal"), "n") {
		cs := r.curves("Steal", map[string]string{"n": strconv.Itoa(n)}, "p", "ns/op", 1e-3) // µs
		if len(cs) == 0 {
			continue
		}
		jobs = append(jobs, job{fmt.Sprintf("steal-n%d.png", n), func() (*plot.Plot, error) {
			p := newPlot(fmt.Sprintf("Steal latency by proportion, %d items", n), "proportion stolen (%)", "µs per steal")
			if err := addCurves(p, cs); err != nil {
				return nil, err
			}
			if n != paper.stealItemsAssumed {
				return p, nil
			}
			if err := addPaperLine(p, "paper: lfqueue", xy{10, paper.stealLF / 1e3}, xy{60, paper.stealLF / 1e3}); err != nil {
				return nil, err
			}
			if err := addPaperLine(p, "paper: skip-count", xy{10, paper.stealSkip10 / 1e3}, xy{60, paper.stealSkip60 / 1e3}); err != nil {
				return nil, err
			}
			return p, addPaperPoints(p, "paper: Taskflow at 60 %", xy{60, paper.stealTaskflow60 / 1e3})
		}})
	}
	if names, ns := r.popBars(); len(names) > 0 {
		jobs = append(jobs, job{"pop.png", func() (*plot.Plot, error) {
			p := newPlot("Pop latency", "", "ns per pop")
			bars, err := plotter.NewBarChart(plotter.Values(ns), vg.Points(22))
			if err != nil {
				return nil, err
			}
			bars.Color = plotutil.Color(0)
			p.Add(bars)
			p.NominalX(names...)
			err = addPaperLine(p, fmt.Sprintf("paper: %v–%v ns, all queues", paper.popLow, paper.popHigh),
				xy{-0.5, (paper.popLow + paper.popHigh) / 2}, xy{float64(len(names)) - 0.5, (paper.popLow + paper.popHigh) / 2})
			return p, err
		}})
	}
	dag := r.bench("DAG")
	for _, work := range distinct(dag, "work") {
		for _, mode := range distinct(dag, "mode") {
			times := r.dagCurves(work, mode)
			if len(times) == 0 {
				continue
			}
			jobs = append(jobs, job{fmt.Sprintf("dag-time-%s-%s.png", work, mode), func() (*plot.Plot, error) {
				p := newPlot(fmt.Sprintf("DAG exploration time, %s work, %s mode", work, mode), "workers", "seconds per exploration")
				p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
				p.X.Tick.Marker = xTicks(times)
				return p, addCurves(p, times)
			}})
			if sp := speedups(times); len(sp) > 0 {
				jobs = append(jobs, job{fmt.Sprintf("dag-speedup-%s-%s.png", work, mode), func() (*plot.Plot, error) {
					p := newPlot(fmt.Sprintf("DAG exploration speedup over 1 worker, %s work, %s mode", work, mode), "workers", "speedup")
					p.X.Tick.Marker = xTicks(sp)
					if err := addCurves(p, sp); err != nil {
						return nil, err
					}
					most := 1.0
					for _, c := range sp {
						most = max(most, c.pts[len(c.pts)-1].x)
					}
					if ceil := speedups([]curve{r.ceilingCurve()}); len(ceil) > 0 {
						if err := addReference(p, ceil[0].name, ceilingColor, ceil[0].pts...); err != nil {
							return nil, err
						}
					}
					return p, addPaperLine(p, "linear (paper: near-linear, uniform work)", xy{1, 1}, xy{most, most})
				}})
			}
		}
	}
	if cs := r.masterCurves("capacity-steals/s"); len(cs) > 0 {
		jobs = append(jobs, job{"master-capacity.png", func() (*plot.Plot, error) {
			p := newPlot("Master capacity: hand-offs per second of master busy time", "workers", "steals per second")
			p.X.Tick.Marker = xTicks(cs)
			return p, addCurves(p, cs)
		}})
	}
	for _, j := range jobs {
		p, err := j.draw()
		if err != nil {
			return written, fmt.Errorf("%s: %w", j.file, err)
		}
		if err := save(p, dir, j.file); err != nil {
			return written, fmt.Errorf("%s: %w", j.file, err)
		}
		written[j.file] = true
	}
	return written, nil
}
