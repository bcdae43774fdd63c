package main

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// The figures' size: figHeight for a figure with one row of plots, and
// rowHeight more for each further row of panels.
const (
	figWidth  = 10 * vg.Inch
	figHeight = 6 * vg.Inch
	rowHeight = 3 * vg.Inch
)

// palette holds the colours of the contenders, in their order, and shapes
// their markers plus one more, so that the queues beyond the contenders,
// which take styles in turn after them, differ in colour or marker from
// every other for len(palette)·len(shapes) queues; their lines also turn
// dashed, and their bars hatched, on each round of the palette.
var (
	palette = func() []color.Color {
		cs := make([]color.Color, len(contenders))
		for i, c := range contenders {
			cs[i] = c.color
		}
		return cs
	}()
	shapes = func() []draw.GlyphDrawer {
		gs := make([]draw.GlyphDrawer, len(contenders), len(contenders)+1)
		for i, c := range contenders {
			gs[i] = c.glyph
		}
		return append(gs, triangleGlyph{right: true})
	}()
)

// queueDashes are the queues' line patterns and hatches their bars' fill
// patterns, one per round of the palette.
var queueDashes = [][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(2)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)},
}

// hatches are the queues' bar fills by round of the palette: solid, then
// lines of slope +1, -1 or both over white.
var hatches = [][]float64{nil, {1}, {-1}, {1, -1}}

// rgb returns an opaque colour.
func rgb(r, g, b uint8) color.RGBA { return color.RGBA{R: r, G: g, B: b, A: 255} }

var (
	black    = rgb(0, 0, 0)
	gridGrey = rgb(0xDD, 0xDD, 0xDD)
)

// style is how one series or reference is drawn.
type style struct {
	color  color.Color
	glyph  draw.GlyphDrawer
	dashes []vg.Length
	width  vg.Length
	hatch  []float64 // slopes of a bar's hatching lines; solid if empty
}

// queueStyle returns the style of the queue with style index i.
func queueStyle(i int) style {
	return style{
		color:  palette[i%len(palette)],
		glyph:  shapes[i%len(shapes)],
		dashes: queueDashes[(i/len(palette))%len(queueDashes)],
		width:  vg.Points(1.6),
		hatch:  hatches[(i/len(palette))%len(hatches)],
	}
}

// refStyles are the reference marks' styles, all black and thin, told
// apart from each other by dash pattern and marker, and from the queues by
// colour, weight and markers no queue uses.
var refStyles = []style{
	{color: black, glyph: diamondGlyph{}, dashes: []vg.Length{vg.Points(7), vg.Points(3)}, width: vg.Points(1.1)},
	{color: black, glyph: starGlyph{}, dashes: []vg.Length{vg.Points(1.5), vg.Points(2.5)}, width: vg.Points(1.3)},
	{color: black, glyph: hexagonGlyph{}, dashes: []vg.Length{vg.Points(9), vg.Points(3), vg.Points(2), vg.Points(3)}, width: vg.Points(1.1)},
	{color: black, glyph: asteriskGlyph{}, dashes: []vg.Length{vg.Points(3), vg.Points(3)}, width: vg.Points(1.1)},
}

// line returns the style's line.
func (s style) line() draw.LineStyle {
	return draw.LineStyle{Color: s.color, Width: s.width, Dashes: s.dashes}
}

// glyphStyle returns the style's marker at radius r.
func (s style) glyphStyle(r vg.Length) draw.GlyphStyle {
	return draw.GlyphStyle{Color: s.color, Radius: r, Shape: s.glyph}
}

// polygonGlyph draws a regular outline or filled polygon.
func polygonGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point, corners int, rot float64, filled bool) {
	var p vg.Path
	for i := 0; i <= corners; i++ {
		a := rot + 2*math.Pi*float64(i)/float64(corners)
		q := vg.Point{X: pt.X + sty.Radius*vg.Length(math.Cos(a)), Y: pt.Y + sty.Radius*vg.Length(math.Sin(a))}
		if i == 0 {
			p.Move(q)
		} else {
			p.Line(q)
		}
	}
	p.Close()
	if filled {
		c.SetColor(sty.Color)
		c.Fill(p)
		return
	}
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.2)})
	c.Stroke(p)
}

// diamondGlyph draws the outline of a diamond.
type diamondGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (diamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	polygonGlyph(c, sty, pt, 4, math.Pi/2, false)
}

// filledDiamondGlyph draws a filled diamond.
type filledDiamondGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (filledDiamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	polygonGlyph(c, sty, pt, 4, math.Pi/2, true)
}

// triangleGlyph draws a triangle pointing up, down or right, filled or as
// an outline.
type triangleGlyph struct{ down, right, filled bool }

// DrawGlyph implements draw.GlyphDrawer.
func (g triangleGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	rot := math.Pi / 2
	switch {
	case g.down:
		rot = -math.Pi / 2
	case g.right:
		rot = 0
	}
	polygonGlyph(c, sty, pt, 3, rot, g.filled)
}

// pentagonGlyph draws a pentagon, filled or as an outline.
type pentagonGlyph struct{ filled bool }

// DrawGlyph implements draw.GlyphDrawer.
func (g pentagonGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	polygonGlyph(c, sty, pt, 5, math.Pi/2, g.filled)
}

// asteriskGlyph draws a six-armed asterisk.
type asteriskGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer: three crossed strokes.
func (asteriskGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	ls := draw.LineStyle{Color: sty.Color, Width: vg.Points(1.2)}
	for i := range 3 {
		a := math.Pi/2 + math.Pi*float64(i)/3
		dx, dy := sty.Radius*vg.Length(math.Cos(a)), sty.Radius*vg.Length(math.Sin(a))
		c.StrokeLine2(ls, pt.X-dx, pt.Y-dy, pt.X+dx, pt.Y+dy)
	}
}

// hexagonGlyph draws the outline of a hexagon.
type hexagonGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (hexagonGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	polygonGlyph(c, sty, pt, 6, 0, false)
}

// starGlyph draws the outline of a five-pointed star.
type starGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer: a five-pointed outline star.
func (starGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	var p vg.Path
	for i := 0; i <= 10; i++ {
		r := sty.Radius * 1.2
		if i%2 == 1 {
			r *= 0.45
		}
		a := math.Pi/2 + math.Pi*float64(i)/5
		q := vg.Point{X: pt.X + r*vg.Length(math.Cos(a)), Y: pt.Y + r*vg.Length(math.Sin(a))}
		if i == 0 {
			p.Move(q)
		} else {
			p.Line(q)
		}
	}
	p.Close()
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.2)})
	c.Stroke(p)
}

// series is one queue's measurements in a figure.
type series struct {
	name string
	look style
	pts  []point
}

// reference is a mark that is not one of the queues' measurements: a
// figure the paper states, the ideal linear speedup, the busy work alone.
type reference struct {
	label string
	// pts are the reference's points; a Stat with N == 0 has no spread.
	pts []point
	// span draws a horizontal line at pts[0] across the whole plot.
	span bool
	// line joins the points; otherwise each is a marker only.
	line bool
}

// exact returns a point without spread.
func exact(x, y float64) point { return point{x, Stat{Median: y, Lo: y, Hi: y, Min: y, Max: y}} }

// figure is one plot: our measurements, one series per queue, and the
// references, with a legend beside the data and a caption below it naming
// the machine and what the bars mean. A figure with panels draws them
// instead, side by side in rows of two (or one above the other) on one y
// scale, with one legend and one caption.
type figure struct {
	title, xLabel, yLabel string
	series                []series
	refs                  []reference
	// categories, if set, names the x positions 0, 1, ... of a bar chart
	// with one bar per position (one queue each).
	categories []string
	// grouped makes the figure a bar chart however many x values it has:
	// a group of bars, one per queue with a point there, at each x, named
	// by group.
	grouped bool
	// lines makes the figure a line chart however few x values it has,
	// such as a speedup measured at 1 and 2 cores; its series are dodged
	// sideways by a few points each (see dodge), so that the markers and
	// whiskers of one x do not hide each other.
	lines bool
	// linear keeps the y axis linear whatever the spread of the values,
	// for bars whose lengths are to be compared.
	linear bool
	// fit draws a bar chart's medians as markers on a linear y axis.
	// The axis spans the values only, not from zero. Ratios near 1 need
	// it: a bar from zero hides a few per cent. A figure with panels
	// sets it on each panel too.
	fit bool
	// labels writes each bar's median above it, for bars too short to
	// read on a linear axis.
	labels bool
	// group names the x value of a group of bars ("2 workers").
	group func(x float64) string
	// procs is the GOMAXPROCS of the results shown.
	procs int
	// notes are caption lines particular to the figure.
	notes []string
	// panels, if set, are the figure's plots, each titled with its own
	// title; they take their y label from the figure and may leave their
	// own empty.
	panels []*figure
	// column stacks the panels one above the other, each as wide as the
	// figure, for panels of many groups.
	column bool
	// context are series of other panels, drawn thin and grey behind the
	// figure's own as a backdrop, without markers or legend entries of
	// their own.
	context []series
}

// xs returns the distinct x values of the series, sorted.
func (f *figure) xs() []float64 {
	var xs []float64
	for _, s := range f.series {
		for _, p := range s.pts {
			if !slices.Contains(xs, p.x) {
				xs = append(xs, p.x)
			}
		}
	}
	slices.Sort(xs)
	return xs
}

// bars reports whether the figure is a bar chart: categories, groups, or
// too few x values for a line to mean anything, unless lines asks for
// lines. On a logarithmic y axis, where a bar's length means nothing, the
// chart draws a marker at each bar's median instead (see dots).
func (f *figure) bars() bool {
	return f.categories != nil || f.grouped || (!f.lines && len(f.xs()) <= 2)
}

// barSlot returns the place of series i's bar in the group at x: its
// offset from the group's left edge in bar widths, among the series with a
// point at x, and the width of a bar as a share of the group. The bars of a
// group are side by side and centred, each as wide as in a full group.
func (f *figure) barSlot(i int, x float64) (offset, width float64) {
	k, n := 0, 0 // the bar's place, and the bars at x
	for j, s := range f.series {
		if slices.ContainsFunc(s.pts, func(p point) bool { return p.x == x }) {
			if j < i {
				k++
			}
			n++
		}
	}
	return float64(len(f.series)-n)/2 + float64(k), 1 / float64(len(f.series))
}

// dots reports whether the figure, laid out as a bar chart, draws markers
// instead of bars: on the logarithmic y scale sc, or on a fitted one.
func (f *figure) dots(sc yScale) bool { return (sc.log || f.fit) && f.bars() }

// visibleRefs returns the references with only their points that fall on
// the figure: at a group of bars, or within the measured x range; a
// reference left without points is dropped, with its legend entry.
func (f *figure) visibleRefs() []reference {
	xs := f.xs()
	if len(xs) == 0 {
		return nil
	}
	var out []reference
	for _, r := range f.refs {
		if r.span {
			out = append(out, r)
			continue
		}
		keep := r
		keep.pts = slices.DeleteFunc(slices.Clone(r.pts), func(p point) bool {
			if f.bars() {
				return f.categories == nil && !slices.Contains(xs, p.x)
			}
			return p.x < xs[0] || p.x > xs[len(xs)-1]
		})
		if len(keep.pts) > 0 {
			out = append(out, keep)
		}
	}
	return out
}

// plots returns the figure's panels, or the figure itself if it has none.
func (f *figure) plots() []*figure {
	if len(f.panels) > 0 {
		return f.panels
	}
	return []*figure{f}
}

// points calls fn for every point of the figure's series, in its panels
// if it has any.
func (f *figure) points(fn func(point)) {
	for _, pf := range f.plots() {
		for _, s := range pf.series {
			for _, p := range s.pts {
				fn(p)
			}
		}
	}
}

// useCI reports whether every point of the figure has a finite confidence
// interval; the bars show it then, and the range of the samples otherwise.
func (f *figure) useCI() bool {
	ci := true
	f.points(func(p point) { ci = ci && p.HasCI() })
	return ci
}

// sampleCounts returns the fewest and most samples per point.
func (f *figure) sampleCounts() (lo, hi int) {
	lo = math.MaxInt
	f.points(func(p point) {
		if p.N > 0 { // not a value that holds by definition
			lo, hi = min(lo, p.N), max(hi, p.N)
		}
	})
	return lo, hi
}

// wideCounts returns how many points have an interval too wide to draw
// (see tooWide), and how many points there are.
func (f *figure) wideCounts(ci bool) (wide, all int) {
	f.points(func(p point) {
		all++
		if tooWide(p.Stat, ci) {
			wide++
		}
	})
	return wide, all
}

// spread returns the bar around a point's median.
func spread(p Stat, ci bool) (lo, hi float64) {
	if p.N == 0 {
		return p.Median, p.Median
	}
	if ci {
		return p.Lo, p.Hi
	}
	return p.Min, p.Max
}

// wideCI is the half-width, relative to the median, from which a
// confidence interval is too wide to mean anything: benchstat's "± 100%",
// an interval that reaches zero or twice the median, allows any figure
// from nothing to double. The plots leave such whiskers out and mark the
// median with wideMark, and the tables mark the figure.
const wideCI = 1.0

// wideMark marks a median whose interval is too wide to mean anything.
const wideMark = "†"

// tooWide reports whether s has a confidence interval, shown when ci is
// set, at least wideCI of its median wide on either side.
func tooWide(s Stat, ci bool) bool {
	if !ci || s.N == 0 || !s.HasCI() || s.Median <= 0 {
		return false
	}
	return s.Hi-s.Median >= wideCI*s.Median || s.Median-s.Lo >= wideCI*s.Median
}

// logRatio is the ratio of the largest to the smallest value shown from
// which the y axis is logarithmic, so that a queue 20 times faster than
// another is not drawn as a sliver.
const logRatio = 20

// offScaleRatio is how far above everything measured (on a linear axis) a
// reference is left off the scale, so that it does not flatten the
// measurements: it is written at the top of the plot and in the caption
// instead.
const offScaleRatio = 3

// yScale is the y axis shared by a figure's panels.
type yScale struct {
	lo, hi float64 // the extent of the values shown
	log    bool
	// dataHi is the largest measured value, whiskers included, and
	// dataLog whether the measurements alone call for a logarithmic axis.
	dataHi  float64
	dataLog bool
}

// offScale reports whether a reference lies so far above the measurements
// on a linear axis that it is left off the scale.
func (sc yScale) offScale(r reference) bool {
	if sc.dataLog || sc.dataHi <= 0 {
		return false
	}
	for _, p := range r.pts {
		if p.Median <= offScaleRatio*sc.dataHi {
			return false
		}
	}
	return len(r.pts) > 0
}

// yScaleOf returns the y axis for the figure: the extent of the
// measurements with their drawn whiskers and of the references on the
// scale, logarithmic when they span logRatio or more.
func (f *figure) yScaleOf(ci bool) yScale {
	lo, hi := math.Inf(1), math.Inf(-1)
	add := func(vs ...float64) {
		for _, v := range vs {
			if v > 0 {
				lo = min(lo, v)
			}
			hi = max(hi, v)
		}
	}
	f.points(func(p point) {
		add(p.Median)
		if !tooWide(p.Stat, ci) {
			add(spread(p.Stat, ci))
		}
	})
	sc := yScale{dataHi: hi, dataLog: !f.linear && hi/lo >= logRatio}
	for _, pf := range f.plots() {
		for _, r := range pf.visibleRefs() {
			if sc.offScale(r) {
				continue
			}
			for _, p := range r.pts {
				add(p.Median)
				add(spread(p.Stat, ci))
			}
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	sc.lo, sc.hi, sc.log = lo, hi, !f.linear && hi/lo >= logRatio
	return sc
}

// plotFunc is a plot.Plotter that draws with a function.
type plotFunc func(c draw.Canvas, p *plot.Plot)

// Plot implements plot.Plotter.
func (f plotFunc) Plot(c draw.Canvas, p *plot.Plot) { f(c, p) }

// thumbFunc is a legend thumbnail drawn by a function.
type thumbFunc func(c *draw.Canvas)

// Thumbnail implements plot.Thumbnailer.
func (f thumbFunc) Thumbnail(c *draw.Canvas) { f(c) }

// legend is the legend of a figure, one entry per name.
type legend struct {
	plot.Legend
	names []string
}

// add adds an entry unless one of that name is there (an earlier panel's).
func (l *legend) add(name string, thumb func(c *draw.Canvas)) {
	if slices.Contains(l.names, name) {
		return
	}
	l.Add(name, thumbFunc(thumb))
	l.names = append(l.names, name)
}

// render draws the figure as a PNG.
func (f *figure) render(cfg map[string]string) ([]byte, error) {
	ci := f.useCI()
	sc := f.yScaleOf(ci)
	lg := &legend{Legend: plot.NewLegend()}
	lg.TextStyle.Font.Size = vg.Points(11)
	lg.ThumbnailWidth = vg.Points(30)
	lg.Top, lg.Left = true, true
	cols := panelCols
	if f.column {
		cols = 1
	}
	var plots []*plot.Plot
	var offScale []string
	for i, pf := range f.plots() {
		p, off := pf.build(ci, sc, lg)
		if len(f.panels) == 0 {
			p.Title.Text = f.title
		} else {
			// Panels in rows of two (or one): the y label on the left,
			// the x label at the bottom.
			p.Title.TextStyle.Font.Size = vg.Points(12)
			p.Y.Label.Text = ""
			if i%cols == 0 {
				p.Y.Label.Text = f.yLabel
			}
			if i+cols < len(f.panels) {
				p.X.Label.Text = ""
			}
		}
		plots = append(plots, p)
		for _, r := range off {
			if !slices.Contains(offScale, r) {
				offScale = append(offScale, r)
			}
		}
	}

	// The caption.
	lo, hi := f.sampleCounts()
	counts := plural(hi, "sample", "samples")
	if lo != hi {
		counts = fmt.Sprintf("%d to %d samples", lo, hi)
	}
	what := "Points"
	if f.plots()[0].bars() && !f.dots(sc) {
		what = "Bars"
	}
	var lines []string
	lines = append(lines, machine(cfg, f.procs))
	if ci {
		lines = append(lines, fmt.Sprintf("%s: medians of %s; whiskers: 95 %% confidence interval of the median (as benchstat).", what, counts))
	} else {
		lines = append(lines, fmt.Sprintf("%s: medians of %s; whiskers: smallest to largest sample (6 or more samples give a 95 %% confidence interval instead).", what, counts))
	}
	switch {
	case f.dots(sc) && sc.log:
		lines = append(lines, "The y axis is logarithmic, so that every queue can be read: a marker, not a bar, shows each median.")
	case f.dots(sc):
		lines = append(lines, "The y axis spans the values only, not from zero, so that a few per cent can be read: a marker, not a bar, shows each median.")
	}
	if wide, all := f.wideCounts(ci); wide > 0 {
		lines = append(lines, fmt.Sprintf("%s: an interval of ± %.0f %% or more, too wide to mean anything (the median could be half or double): whisker left out; %d of %d %s.",
			wideMark, 100*wideCI, wide, all, strings.ToLower(what)))
	}
	for _, r := range offScale {
		lines = append(lines, fmt.Sprintf("Off the scale, above the plot: %s.", r))
	}
	lines = append(lines, f.notes...)
	title := ""
	if len(f.panels) > 0 {
		title = f.title
	}
	return drawFigure(title, plots, cols, lg, lines)
}

// build returns the figure's plot on the y scale sc, adding its entries to
// the legend, and the labels of the references it left off the scale.
func (f *figure) build(ci bool, sc yScale, lg *legend) (*plot.Plot, []string) {
	bars := f.bars()
	dots := f.dots(sc) // bars drawn as markers, on a log scale
	xs := f.xs()

	p := plot.New()
	p.Title.Text = f.title
	p.Title.TextStyle.Font.Size = vg.Points(14)
	p.X.Label.Text = f.xLabel
	p.Y.Label.Text = f.yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(12)
		a.Tick.Label.Font.Size = vg.Points(11)
	}
	grid := plotter.NewGrid()
	grid.Horizontal.Color, grid.Vertical.Color = gridGrey, gridGrey
	if bars {
		grid.Vertical.Color = nil
	}
	p.Add(grid)

	// The y axis.
	base := 0.0 // where bars start
	if sc.log {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, logTicks{}
		p.Y.Min, p.Y.Max = sc.lo/1.3, sc.hi*1.3
		base = p.Y.Min
	} else {
		p.Y.Tick.Marker = linearTicks{}
		p.Y.Min, p.Y.Max = 0, sc.hi*1.08
		if sc.lo < 0 {
			p.Y.Min = sc.lo * 1.08
		}
		if f.fit {
			pad := max(sc.hi-sc.lo, 0.1*sc.hi) * 0.08
			p.Y.Min, p.Y.Max = sc.lo-pad, sc.hi+pad
			if sc.lo >= 0 {
				p.Y.Min = max(p.Y.Min, 0) // no negative room under positive values
			}
		}
	}

	// The x axis: groups of bars, or the measured x values.
	pos := func(x float64) float64 { return x } // x value to axis position
	var halfGroup float64                       // half the width of a group
	switch {
	case len(xs) == 0:
	case f.categories != nil:
		p.X.Min, p.X.Max = -0.5, float64(len(f.categories))-0.5
		p.X.Tick.Marker = labelTicks(f.categories)
		halfGroup = 0.3
	case bars:
		if f.group != nil {
			p.X.Label.Text = "" // the groups say it
		}
		names := make([]string, len(xs))
		for i, x := range xs {
			names[i] = strconv.FormatFloat(x, 'f', -1, 64)
			if f.group != nil {
				names[i] = f.group(x)
			}
		}
		pos = func(x float64) float64 { return float64(slices.Index(xs, x)) }
		p.X.Min, p.X.Max = -0.5, float64(len(xs))-0.5
		p.X.Tick.Marker = labelTicks(names)
		halfGroup = 0.42
	default:
		p.X.Tick.Marker = valueTicks(xs)
		lo, hi := xs[0], xs[len(xs)-1]
		if lo > 0 && hi/lo >= 16 {
			p.X.Scale = plot.LogScale{}
			p.X.Min, p.X.Max = lo/math.Pow(hi/lo, 0.03), hi*math.Pow(hi/lo, 0.03)
		} else {
			pad := (hi - lo) * 0.03
			p.X.Min, p.X.Max = lo-pad, hi+pad
		}
	}

	// The backdrop of the other panels' queues, then our measurements.
	for _, s := range f.context {
		p.Add(plotFunc(func(c draw.Canvas, p *plot.Plot) {
			trX, trY := p.Transforms(&c)
			var line []vg.Point
			for _, q := range s.pts {
				line = append(line, vg.Point{X: trX(q.x), Y: trY(q.Median)})
			}
			c.StrokeLines(contextStyle.line(), c.ClipLinesXY(line)...)
		}))
	}
	for i, s := range f.series {
		st := s.look
		var drawFn plotFunc
		if bars {
			drawFn = func(c draw.Canvas, p *plot.Plot) {
				for _, q := range s.pts {
					var x0, x1 float64
					if f.categories != nil {
						x0, x1 = q.x-halfGroup, q.x+halfGroup
					} else {
						off, w := f.barSlot(i, q.x)
						w *= 2 * halfGroup
						x0 = pos(q.x) - halfGroup + off*w
						x1 = x0 + w*0.9
					}
					if dots {
						drawDot(c, p, st, (x0+x1)/2, q.Stat, ci)
					} else {
						drawBar(c, p, st, x0, x1, base, q.Stat, ci)
					}
					if f.labels {
						drawBarLabel(c, p, (x0+x1)/2, q.Stat, ci)
					}
				}
			}
		} else {
			dx := f.dodge(i)
			drawFn = func(c draw.Canvas, p *plot.Plot) { drawLine(c, p, st, s.pts, ci, true, dx) }
		}
		p.Add(drawFn)
		thumb := st
		if dots {
			thumb.width = 0 // a marker only
		}
		lg.add(s.name, func(c *draw.Canvas) { thumbnail(c, thumb, bars && !dots) })
	}

	// wideMark over each median whose interval is too wide to mean
	// anything, in black on a white halo, over the lines of every series.
	p.Add(plotFunc(func(c draw.Canvas, p *plot.Plot) { f.drawWideMarks(c, p, ci, pos, halfGroup, bars) }))

	// The references: on the scale, drawn and in the legend; off it, written
	// at the top of the plot.
	var off []string
	drawn := 0
	for _, r := range f.visibleRefs() {
		if sc.offScale(r) {
			off = append(off, r.label)
			continue
		}
		st := refStyles[drawn%len(refStyles)]
		drawn++
		p.Add(plotFunc(func(c draw.Canvas, p *plot.Plot) {
			switch {
			case r.span:
				trX, trY := p.Transforms(&c)
				y := trY(r.pts[0].Median)
				c.StrokeLines(st.line(), c.ClipLinesXY([]vg.Point{{X: trX(p.X.Min), Y: y}, {X: trX(p.X.Max), Y: y}})...)
			case bars:
				// A mark across each group of bars it refers to.
				trX, trY := p.Transforms(&c)
				for _, q := range r.pts {
					x, y := pos(q.x), trY(q.Median)
					end := trX(x + halfGroup + 0.04)
					c.StrokeLines(st.line(), []vg.Point{{X: trX(x - halfGroup - 0.04), Y: y}, {X: end, Y: y}})
					drawWhisker(c, p, st.color, end, q.Stat, ci)
					c.DrawGlyph(st.glyphStyle(vg.Points(5)), vg.Point{X: end, Y: y})
				}
			default:
				drawLine(c, p, st, r.pts, ci, r.line, 0)
			}
		}))
		thumb := st
		switch {
		case r.span:
			thumb.glyph = nil // a line only
		case !r.line:
			thumb.dashes, thumb.width = nil, 0 // a marker only
		}
		lg.add(r.label, func(c *draw.Canvas) { thumbnail(c, thumb, false) })
	}
	if len(off) > 0 {
		p.Add(plotFunc(func(c draw.Canvas, p *plot.Plot) {
			sty := text.Style{Color: black, Font: font.From(plot.DefaultFont, vg.Points(11)), Handler: p.Title.TextStyle.Handler,
				XAlign: draw.XRight, YAlign: draw.YTop}
			y := c.Max.Y - vg.Points(2)
			for _, l := range off {
				c.FillText(sty, vg.Point{X: c.Max.X - vg.Points(4), Y: y}, "↑ "+l+" (off the scale)")
				y -= sty.Height(l) * 1.2
			}
		}))
	}
	return p, off
}

// drawWideMarks draws wideMark above every median of the figure whose
// interval is too wide to mean anything; pos, halfGroup and bars place the
// bars as build does.
func (f *figure) drawWideMarks(c draw.Canvas, p *plot.Plot, ci bool, pos func(float64) float64, halfGroup float64, bars bool) {
	trX, trY := p.Transforms(&c)
	bold := plot.DefaultFont
	bold.Weight = xfont.WeightBold
	sty := text.Style{Font: font.From(bold, vg.Points(15)), Handler: p.Title.TextStyle.Handler, XAlign: draw.XLeft, YAlign: draw.YCenter}
	for i, s := range f.series {
		for _, q := range s.pts {
			if !tooWide(q.Stat, ci) {
				continue
			}
			x := trX(q.x)
			switch {
			case f.categories != nil:
				x = trX(q.x)
			case bars:
				off, w := f.barSlot(i, q.x)
				w *= 2 * halfGroup
				x0 := pos(q.x) - halfGroup + off*w
				x = trX(x0 + w*0.45)
			}
			pt := vg.Point{X: x + vg.Points(4), Y: min(trY(q.Median), c.Max.Y) + vg.Points(7)}
			if !c.Contains(pt) {
				continue
			}
			sty.Color = color.White
			for _, d := range []vg.Point{{X: -1, Y: 0}, {X: 1, Y: 0}, {X: 0, Y: -1}, {X: 0, Y: 1}} {
				c.FillText(sty, pt.Add(d), wideMark)
			}
			sty.Color = black
			c.FillText(sty, pt, wideMark)
		}
	}
}

// panelCols is the number of panels in a row of a figure, unless it
// stacks them in a column.
const panelCols = 2

// drawFigure lays out the plots (in rows of cols, under title, if there
// are several), the legend to their right and the caption below all, and
// encodes the whole as a PNG.
func drawFigure(title string, plots []*plot.Plot, cols int, lg *legend, caption []string) ([]byte, error) {
	rows := (len(plots) + cols - 1) / cols
	figHeight := figHeight + rowHeight*vg.Length(rows-1)
	img := vgimg.New(figWidth, figHeight)
	dc := draw.New(img)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())

	handler := plots[0].Title.TextStyle.Handler
	capStyle := text.Style{Color: black, Font: font.From(plot.DefaultFont, vg.Points(10)), Handler: handler}
	lineH := capStyle.Height("Mg") * 1.25
	pad := vg.Points(8)
	caption = wrap(caption, capStyle, figWidth-2*pad)
	capH := lineH*vg.Length(len(caption)) + vg.Points(10)

	var legendW vg.Length
	for _, e := range lg.names {
		legendW = max(legendW, lg.TextStyle.Width(e))
	}
	legendW += lg.ThumbnailWidth + 3*pad

	var titleH vg.Length
	if title != "" {
		ts := text.Style{Color: black, Font: font.From(plot.DefaultFont, vg.Points(14)), Handler: handler, XAlign: draw.XCenter, YAlign: draw.YTop}
		titleH = ts.Height(title) + pad
		dc.FillText(ts, vg.Point{X: (figWidth - legendW) / 2, Y: figHeight - vg.Points(4)}, title)
	}
	area := draw.Crop(dc, 0, -legendW, capH, -titleH)
	for _, p := range plots {
		slantCrowdedLabels(p, (figWidth-legendW)/vg.Length(min(len(plots), cols)))
	}
	if len(plots) == 1 {
		plots[0].Draw(area)
	} else {
		grid := make([][]*plot.Plot, rows)
		for i := range grid {
			grid[i] = make([]*plot.Plot, cols)
		}
		for i, p := range plots {
			grid[i/cols][i%cols] = p
		}
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(14), PadY: vg.Points(10)}
		canvases := plot.Align(grid, tiles, area)
		for i, p := range plots {
			p.Draw(canvases[i/cols][i%cols])
		}
	}
	lc := draw.Crop(dc, figWidth-legendW+pad, -pad, capH, -pad-titleH)
	lg.YOffs = -(plots[0].Title.TextStyle.Height(plots[0].Title.Text) + plots[0].Title.Padding)
	lg.Draw(lc)

	capStyle.YAlign = text.YTop
	y := capH - vg.Points(4)
	for _, l := range caption {
		dc.FillText(capStyle, vg.Point{X: pad, Y: y}, l)
		y -= lineH
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// slantCrowdedLabels slants the names under a bar chart's groups or
// categories when, level, they would not fit side by side in a plot about
// width wide.
func slantCrowdedLabels(p *plot.Plot, width vg.Length) {
	names, ok := p.X.Tick.Marker.(labelTicks)
	if !ok || len(names) == 0 {
		return
	}
	sty := p.X.Tick.Label
	var widest vg.Length
	for _, n := range names {
		widest = max(widest, sty.Width(n))
	}
	const axisW = 60 // points: the y axis, its label and the padding
	if (widest+vg.Points(6))*vg.Length(len(names)) <= width-vg.Points(axisW) {
		return
	}
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
}

// wrap breaks lines at spaces so that none is wider than width.
func wrap(lines []string, sty text.Style, width vg.Length) []string {
	var out []string
	for _, l := range lines {
		cur := ""
		for _, word := range strings.Fields(l) {
			next := word
			if cur != "" {
				next = cur + " " + word
			}
			if cur != "" && sty.Width(next) > width {
				out = append(out, cur)
				next = word
			}
			cur = next
		}
		out = append(out, cur)
	}
	return out
}

// machine returns the caption line that says where the results come from:
// procs is the GOMAXPROCS of the results, 0 for a figure whose x axis is
// GOMAXPROCS.
func machine(cfg map[string]string, procs int) string {
	or := func(key, missing string) string {
		if v := strings.TrimSpace(cfg[key]); v != "" {
			return v
		}
		return missing
	}
	parts := []string{
		"CPU: " + or("cpu", "not recorded"),
		or(keyCores, "?") + " cores",
		fmt.Sprintf("GOMAXPROCS %d", procs),
		or(keyGoVersion, "Go version not recorded"),
		or("goos", "?") + "/" + or("goarch", "?"),
	}
	date := or(keyDate, "date not recorded")
	if len(date) >= 10 && date[4] == '-' && date[7] == '-' {
		date = date[:10]
	}
	parts = append(parts, date)
	if procs == 0 {
		parts[2] = "GOMAXPROCS as on the x axis"
	}
	if cfg[keyCores] == "" {
		parts[1] = "cores not recorded"
	}
	return strings.Join(parts, " · ")
}

// thumbnail draws a legend entry's sample: a piece of bar, or of line with
// its marker.
func thumbnail(c *draw.Canvas, st style, bar bool) {
	mid := (c.Min.Y + c.Max.Y) / 2
	if bar {
		h := (c.Max.Y - c.Min.Y) * 0.8
		fillBar(c, st, c.Min.X+3, c.Max.X-3, mid-h/2, mid+h/2)
		return
	}
	if st.width > 0 {
		c.StrokeLine2(st.line(), c.Min.X, mid, c.Max.X, mid)
	}
	if st.glyph != nil {
		c.DrawGlyph(st.glyphStyle(vg.Points(3.5)), vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: mid})
	}
}

// fillBar fills the rectangle [l, r] × [b, t] with the style's colour or
// hatching and outlines it.
func fillBar(c *draw.Canvas, st style, l, r, b, t vg.Length) {
	if t < b {
		b, t = t, b
	}
	rect := []vg.Point{{X: l, Y: b}, {X: r, Y: b}, {X: r, Y: t}, {X: l, Y: t}}
	if len(st.hatch) == 0 {
		c.FillPolygon(st.color, rect)
	} else {
		c.FillPolygon(color.White, rect)
		ls := draw.LineStyle{Color: st.color, Width: vg.Points(1.6)}
		gap := vg.Points(4)
		for _, slope := range st.hatch {
			// Lines y = b + slope*(x - x0) for x0 every gap along the
			// base, extended so that they cover the whole rectangle.
			for x0 := l - (t - b); x0 < r+(t-b); x0 += gap {
				var seg [2]vg.Point
				if slope > 0 {
					seg = [2]vg.Point{{X: x0, Y: b}, {X: x0 + (t - b), Y: t}}
				} else {
					seg = [2]vg.Point{{X: x0, Y: t}, {X: x0 + (t - b), Y: b}}
				}
				if p, ok := clipSegment(seg, l, r); ok {
					c.StrokeLine2(ls, p[0].X, p[0].Y, p[1].X, p[1].Y)
				}
			}
		}
	}
	c.StrokeLines(draw.LineStyle{Color: rgb(0x44, 0x44, 0x44), Width: vg.Points(0.5)}, append(rect, rect[0]))
}

// clipSegment clips a segment to the vertical band l ≤ x ≤ r.
func clipSegment(s [2]vg.Point, l, r vg.Length) ([2]vg.Point, bool) {
	a, b := s[0], s[1]
	if a.X > b.X {
		a, b = b, a
	}
	if b.X < l || a.X > r || a.X == b.X {
		return s, false
	}
	at := func(x vg.Length) vg.Point { return vg.Point{X: x, Y: a.Y + (b.Y-a.Y)*(x-a.X)/(b.X-a.X)} }
	if a.X < l {
		a = at(l)
	}
	if b.X > r {
		b = at(r)
	}
	return [2]vg.Point{a, b}, true
}

// dodgeStep is how far apart the series of a figure with lines are drawn
// at one x, and dodgeWidth the most they spread over, so that none leaves
// the plot's margin.
const (
	dodgeStep  = vg.Length(4)
	dodgeWidth = vg.Length(12)
)

// dodge returns how far sideways series i of the figure is drawn: nothing
// unless the figure asks for lines, and then the series side by side,
// dodgeStep apart (less if there are many), centred on their x.
func (f *figure) dodge(i int) vg.Length {
	n := len(f.series)
	if !f.lines || n < 2 {
		return 0
	}
	step := min(dodgeStep, dodgeWidth/vg.Length(n-1))
	return step * vg.Length(float64(i)-float64(n-1)/2)
}

// drawLine draws points with their whiskers and markers, joined by a line
// if join is set, dx to the right of their x.
func drawLine(c draw.Canvas, p *plot.Plot, st style, pts []point, ci, join bool, dx vg.Length) {
	trX, trY := p.Transforms(&c)
	var line []vg.Point
	for _, q := range pts {
		line = append(line, vg.Point{X: trX(q.x) + dx, Y: trY(q.Median)})
	}
	if join && len(line) > 1 {
		c.StrokeLines(st.line(), c.ClipLinesXY(line)...)
	}
	for i, q := range pts {
		drawWhisker(c, p, st.color, line[i].X, q.Stat, ci)
	}
	r := vg.Points(3.5)
	if st.color == color.Color(black) {
		r = vg.Points(5)
	}
	for _, pt := range line {
		if c.Contains(pt) {
			c.DrawGlyph(st.glyphStyle(r), pt)
		}
	}
}

// drawWhisker draws the spread of a point at x, except for an interval too
// wide to mean anything (see tooWide), which marks draws over everything
// else instead.
func drawWhisker(c draw.Canvas, p *plot.Plot, clr color.Color, x vg.Length, s Stat, ci bool) {
	_, trY := p.Transforms(&c)
	if tooWide(s, ci) {
		return
	}
	lo, hi := spread(s, ci)
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return
	}
	lo, hi = max(lo, p.Y.Min), min(hi, p.Y.Max)
	ls := draw.LineStyle{Color: clr, Width: vg.Points(1)}
	y0, y1 := trY(lo), trY(hi)
	end := vg.Points(3) // half the width of the end strokes
	c.StrokeLine2(ls, x, y0, x, y1)
	c.StrokeLine2(ls, x-end, y0, x+end, y0)
	c.StrokeLine2(ls, x-end, y1, x+end, y1)
}

// contextStyle draws the queues of other panels behind a panel's own: a
// thin grey line without markers or whiskers.
var contextStyle = style{color: rgb(0xCC, 0xCC, 0xCC), width: vg.Points(1)}

// drawDot draws the marker of one median at x, with its whisker: a bar
// chart's bar on a logarithmic scale, where a bar's length means nothing.
func drawDot(c draw.Canvas, p *plot.Plot, st style, x float64, s Stat, ci bool) {
	trX, trY := p.Transforms(&c)
	pt := vg.Point{X: trX(x), Y: trY(s.Median)}
	drawWhisker(c, p, st.color, pt.X, s, ci)
	if c.Contains(pt) {
		c.DrawGlyph(st.glyphStyle(vg.Points(5)), pt)
	}
}

// drawBar draws one bar from base to the median over [x0, x1] and its
// whisker.
func drawBar(c draw.Canvas, p *plot.Plot, st style, x0, x1, base float64, s Stat, ci bool) {
	trX, trY := p.Transforms(&c)
	l, r := trX(x0), trX(x1)
	b, t := trY(base), trY(s.Median)
	t = min(max(t, c.Min.Y), c.Max.Y)
	fillBar(&c, st, l, r, b, t)
	drawWhisker(c, p, black, (l+r)/2, s, ci)
}

// drawBarLabel writes a bar's median above the bar and its whisker,
// centred at x.
func drawBarLabel(c draw.Canvas, p *plot.Plot, x float64, s Stat, ci bool) {
	trX, trY := p.Transforms(&c)
	top := s.Median
	if lo, hi := spread(s, ci); !tooWide(s, ci) && !math.IsInf(hi, 0) && hi > lo {
		top = max(top, hi)
	}
	sty := text.Style{Color: black, Font: font.From(plot.DefaultFont, vg.Points(9)), Handler: p.Title.TextStyle.Handler,
		XAlign: draw.XCenter, YAlign: draw.YBottom}
	pt := vg.Point{X: trX(x), Y: min(trY(top), c.Max.Y-sty.Height("0")) + vg.Points(2)}
	c.FillText(sty, pt, num(s.Median))
}

// formatTick formats a tick value in plain decimal notation, the one format
// of every axis.
func formatTick(v float64, decimals int) string {
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// logTicks labels every power of ten in range, and also 2 and 5 times each
// when fewer than three powers fall in it; the other multiples get
// unlabelled marks.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	first, last := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	decades := 0
	for k := first; k <= last; k++ {
		if v := math.Pow10(k); v >= lo && v <= hi {
			decades++
		}
	}
	var ticks []plot.Tick
	for k := first; k <= last; k++ {
		for m := 1; m <= 9; m++ {
			v, _ := strconv.ParseFloat(fmt.Sprintf("%de%d", m, k), 64)
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || (decades < 3 && (m == 2 || m == 5)) {
				t.Label = formatTick(v, -1)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// linearTicks labels round values 1, 2, 2.5 or 5 times a power of ten
// apart, all with the same number of decimals.
type linearTicks struct{}

// Ticks implements plot.Ticker.
func (linearTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: formatTick(lo, -1)}}
	}
	step := niceStep((hi - lo) / 6)
	decimals := 0
	for decimals < 9 && math.Abs(step*math.Pow10(decimals)-math.Round(step*math.Pow10(decimals))) > 1e-9 {
		decimals++
	}
	var ticks []plot.Tick
	for i := math.Ceil(lo / step * 2); i/2*step <= hi*(1+1e-12); i++ {
		v := i / 2 * step
		t := plot.Tick{Value: v}
		if int(i)%2 == 0 {
			t.Label = formatTick(v, decimals)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// niceStep returns the smallest of 1, 2, 2.5, 5 and 10 times a power of ten
// that is at least raw.
func niceStep(raw float64) float64 {
	e := math.Pow10(int(math.Floor(math.Log10(raw))))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*e >= raw*(1-1e-9) {
			return m * e
		}
	}
	return 10 * e
}

// valueTicks labels the given values, such as the measured worker counts,
// and nothing else.
type valueTicks []float64

// Ticks implements plot.Ticker.
func (vs valueTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for _, v := range vs {
		if v >= lo && v <= hi {
			ticks = append(ticks, plot.Tick{Value: v, Label: formatTick(v, -1)})
		}
	}
	return ticks
}

// labelTicks names the positions 0, 1, ...
type labelTicks []string

// Ticks implements plot.Ticker.
func (ls labelTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for i, l := range ls {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: l})
	}
	return ticks
}
