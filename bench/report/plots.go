package main

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// The figures' size.
const (
	figWidth  = 10 * vg.Inch
	figHeight = 6 * vg.Inch
)

// palette is Paul Tol's "muted" qualitative scheme, which stays
// distinguishable with the common forms of colour blindness, ordered so that
// neighbours differ in lightness. Queues take colours in order of first
// appearance and start over after the last; their markers cycle with a
// different period and their lines turn dashed on the second round, so that
// no two queues look alike.
var palette = []color.Color{
	rgb(0x33, 0x22, 0x88), // indigo
	rgb(0xDD, 0xCC, 0x77), // sand
	rgb(0x11, 0x77, 0x33), // green
	rgb(0xCC, 0x66, 0x77), // rose
	rgb(0x88, 0xCC, 0xEE), // cyan
	rgb(0x88, 0x22, 0x55), // wine
	rgb(0x44, 0xAA, 0x99), // teal
	rgb(0x99, 0x99, 0x33), // olive
	rgb(0xAA, 0x44, 0x99), // purple
}

// shapes are the queues' markers: ten, one more than the colours, so that
// the first ninety queues all differ in colour or marker.
var shapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{},
	draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}, filledDiamondGlyph{}, invertedTriangleGlyph{},
}

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

// invertedTriangleGlyph draws a filled triangle pointing down.
type invertedTriangleGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (invertedTriangleGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	polygonGlyph(c, sty, pt, 3, -math.Pi/2, true)
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
	name  string
	style int // index for queueStyle
	pts   []point
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
// the machine and what the bars mean.
type figure struct {
	title, xLabel, yLabel string
	series                []series
	refs                  []reference
	// categories, if set, names the x positions 0, 1, ... of a bar chart
	// with one bar per position (one queue each).
	categories []string
	// group names the x value of a group of bars ("2 workers").
	group func(x float64) string
	// procs is the GOMAXPROCS of the results shown.
	procs int
	// notes are caption lines particular to the figure.
	notes []string
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

// bars reports whether the figure is a bar chart: categories, or too few x
// values for a line to mean anything.
func (f *figure) bars() bool { return f.categories != nil || len(f.xs()) <= 2 }

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

// useCI reports whether every point of the figure has a finite confidence
// interval; the bars show it then, and the range of the samples otherwise.
func (f *figure) useCI() bool {
	for _, s := range f.series {
		for _, p := range s.pts {
			if !p.HasCI() {
				return false
			}
		}
	}
	return true
}

// sampleCounts returns the fewest and most samples per point.
func (f *figure) sampleCounts() (lo, hi int) {
	lo = math.MaxInt
	for _, s := range f.series {
		for _, p := range s.pts {
			if p.N > 0 { // not a value that holds by definition
				lo, hi = min(lo, p.N), max(hi, p.N)
			}
		}
	}
	return lo, hi
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

// yRange returns the extent of the values to show and whether the y axis
// should be logarithmic: when they span a factor of 50 or more, so that a
// queue 100 times faster than another is not drawn as zero.
func (f *figure) yRange(ci bool) (lo, hi float64, log bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	add := func(p point) {
		l, h := spread(p.Stat, ci)
		for _, v := range []float64{p.Median, l, h} {
			if v > 0 {
				lo = min(lo, v)
			}
			hi = max(hi, v)
		}
	}
	for _, s := range f.series {
		for _, p := range s.pts {
			add(p)
		}
	}
	for _, r := range f.visibleRefs() {
		for _, p := range r.pts {
			add(p)
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	return lo, hi, hi/lo >= 50
}

// plotFunc is a plot.Plotter that draws with a function.
type plotFunc func(c draw.Canvas, p *plot.Plot)

// Plot implements plot.Plotter.
func (f plotFunc) Plot(c draw.Canvas, p *plot.Plot) { f(c, p) }

// thumbFunc is a legend thumbnail drawn by a function.
type thumbFunc func(c *draw.Canvas)

// Thumbnail implements plot.Thumbnailer.
func (f thumbFunc) Thumbnail(c *draw.Canvas) { f(c) }

// render draws the figure as a PNG.
func (f *figure) render(cfg map[string]string) ([]byte, error) {
	ci := f.useCI()
	bars := f.bars()
	xs := f.xs()
	ylo, yhi, logY := f.yRange(ci)

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
	if logY {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, logTicks{}
		p.Y.Min, p.Y.Max = ylo/1.3, yhi*1.3
		base = p.Y.Min
	} else {
		p.Y.Tick.Marker = linearTicks{}
		p.Y.Min, p.Y.Max = 0, yhi*1.08
		if ylo < 0 {
			p.Y.Min = ylo * 1.08
		}
	}

	// The x axis: groups of bars, or the measured x values.
	pos := func(x float64) float64 { return x } // x value to axis position
	var halfGroup float64                       // half the width of a group
	switch {
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

	legend := plot.NewLegend()
	legend.TextStyle.Font.Size = vg.Points(11)
	legend.ThumbnailWidth = vg.Points(30)
	legend.Top, legend.Left = true, true
	var names []string // the legend's entries

	// Our measurements.
	slot := 0 // a bar's place in its group
	for _, s := range f.series {
		st := queueStyle(s.style)
		var drawFn plotFunc
		if bars {
			i := slot
			slot++
			drawFn = func(c draw.Canvas, p *plot.Plot) {
				for _, q := range s.pts {
					var x0, x1 float64
					if f.categories != nil {
						x0, x1 = q.x-halfGroup, q.x+halfGroup
					} else {
						w := 2 * halfGroup / float64(len(f.series))
						x0 = pos(q.x) - halfGroup + float64(i)*w
						x1 = x0 + w*0.9
					}
					drawBar(c, p, st, x0, x1, base, q.Stat, ci)
				}
			}
		} else {
			drawFn = func(c draw.Canvas, p *plot.Plot) { drawLine(c, p, st, s.pts, ci, true) }
		}
		p.Add(drawFn)
		legend.Add(s.name, thumbFunc(func(c *draw.Canvas) { thumbnail(c, st, bars) }))
		names = append(names, s.name)
	}

	// The references.
	for i, r := range f.visibleRefs() {
		st := refStyles[i%len(refStyles)]
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
				drawLine(c, p, st, r.pts, ci, r.line)
			}
		}))
		thumb := st
		switch {
		case r.span:
			thumb.glyph = nil // a line only
		case !r.line:
			thumb.dashes, thumb.width = nil, 0 // a marker only
		}
		legend.Add(r.label, thumbFunc(func(c *draw.Canvas) { thumbnail(c, thumb, false) }))
		names = append(names, r.label)
	}

	// The caption.
	lo, hi := f.sampleCounts()
	counts := plural(hi, "sample", "samples")
	if lo != hi {
		counts = fmt.Sprintf("%d to %d samples", lo, hi)
	}
	what := "Points"
	if bars {
		what = "Bars"
	}
	var lines []string
	lines = append(lines, machine(cfg, f.procs))
	if ci {
		lines = append(lines, fmt.Sprintf("%s: medians of %s; whiskers: 95 %% confidence interval of the median (as benchstat).", what, counts))
	} else {
		lines = append(lines, fmt.Sprintf("%s: medians of %s; whiskers: smallest to largest sample (6 or more samples give a 95 %% confidence interval instead).", what, counts))
	}
	lines = append(lines, f.notes...)
	return drawFigure(p, &legend, names, lines)
}

// drawFigure lays out the plot, the legend (whose entries are named names)
// to its right and the caption below both, and encodes the whole as a PNG.
func drawFigure(p *plot.Plot, legend *plot.Legend, names, caption []string) ([]byte, error) {
	img := vgimg.New(figWidth, figHeight)
	dc := draw.New(img)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())

	capStyle := text.Style{Color: black, Font: font.From(plot.DefaultFont, vg.Points(10)), Handler: p.Title.TextStyle.Handler}
	lineH := capStyle.Height("Mg") * 1.25
	pad := vg.Points(8)
	caption = wrap(caption, capStyle, figWidth-2*pad)
	capH := lineH*vg.Length(len(caption)) + vg.Points(10)

	var legendW vg.Length
	for _, e := range names {
		legendW = max(legendW, legend.TextStyle.Width(e))
	}
	legendW += legend.ThumbnailWidth + 3*pad

	p.Draw(draw.Crop(dc, 0, -legendW, capH, 0))
	lc := draw.Crop(dc, figWidth-legendW+pad, -pad, capH, -pad)
	legend.YOffs = -(p.Title.TextStyle.Height(p.Title.Text) + p.Title.Padding)
	legend.Draw(lc)

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

// machine returns the caption line that says where the results come from.
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

// drawLine draws points with their whiskers and markers, joined by a line
// if join is set.
func drawLine(c draw.Canvas, p *plot.Plot, st style, pts []point, ci, join bool) {
	trX, trY := p.Transforms(&c)
	var line []vg.Point
	for _, q := range pts {
		line = append(line, vg.Point{X: trX(q.x), Y: trY(q.Median)})
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

// drawWhisker draws the spread of a point at x.
func drawWhisker(c draw.Canvas, p *plot.Plot, clr color.Color, x vg.Length, s Stat, ci bool) {
	lo, hi := spread(s, ci)
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return
	}
	_, trY := p.Transforms(&c)
	lo, hi = max(lo, p.Y.Min), min(hi, p.Y.Max)
	ls := draw.LineStyle{Color: clr, Width: vg.Points(1)}
	y0, y1 := trY(lo), trY(hi)
	end := vg.Points(3) // half the width of the end strokes
	c.StrokeLine2(ls, x, y0, x, y1)
	c.StrokeLine2(ls, x-end, y0, x+end, y0)
	c.StrokeLine2(ls, x-end, y1, x+end, y1)
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
