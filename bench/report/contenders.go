package main

import (
	"image/color"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg/draw"
)

// contender is a queue of the benchmarks as the report knows it: how every
// plot draws it, and what the micro-benchmarks time of it.
type contender struct {
	name  string
	color color.Color
	glyph draw.GlyphDrawer
	// batch and steal say what BenchmarkPushBatch and BenchmarkSteal time
	// for the contender; contenders that say the same are named together
	// in a caption, and in a panel of the batch plot. Empty where the
	// contender is not in that benchmark. (BenchmarkPush times one Push of
	// one item for every queue.)
	batch, steal string
}

// What the batch-push and steal benchmarks time (package bench documents
// each contender beside its code).
const (
	pushCopy    = "PushBatch, which copies the batch into the queue"
	pushBulk    = "Taskflow v4's bulk push, which copies the batch in too"
	pushLoop    = "a loop of single pushes, as the paper measured Taskflow"
	pushList    = "PushList of a List built outside the timer, which links the List in without copying: building it is not timed, so these do not compare with the copies"
	stealParcel = "StealParcel, a hand-off that passes the stolen blocks (bq) or nodes (lf, lf-skip) over as they are and copies no item"
	stealCopy   = "StealBatch, which copies the stolen items into a slice"
	stealLoop   = "a loop of single steals into a slice, as the paper measured Taskflow"
)

// contenders are the queues of package bench, each with a colour and a
// marker of its own: the colours are told apart by hue or lightness, and
// related contenders (the forms of one queue) take related colours and
// markers (filled and open), so that a reader sees the families too. A queue
// name not listed here takes the next style after them (see queueStyle).
var contenders = []contender{
	{"bq", rgb(0x43, 0x63, 0xD8), draw.CircleGlyph{}, pushCopy, stealParcel},                        // blue
	{"bq-list", rgb(0x00, 0x00, 0x75), draw.RingGlyph{}, pushList, ""},                              // navy
	{"bq-batch", rgb(0x2F, 0xB8, 0xD9), draw.BoxGlyph{}, "", stealCopy},                             // cyan
	{"lf", rgb(0xE6, 0x19, 0x4B), draw.PyramidGlyph{}, pushCopy, stealParcel},                       // red
	{"lf-list", rgb(0x80, 0x00, 0x00), draw.TriangleGlyph{}, pushList, ""},                          // maroon
	{"lf-skip", rgb(0xF0, 0x32, 0xE6), triangleGlyph{down: true, filled: true}, "", stealParcel},    // magenta
	{"lf-batch", rgb(0xF5, 0x82, 0x31), triangleGlyph{down: true}, "", stealCopy},                   // orange
	{"tf-ub", rgb(0x3C, 0xB4, 0x4B), draw.SquareGlyph{}, pushLoop, stealLoop},                       // green
	{"tf-bd", rgb(0x80, 0x80, 0x00), filledDiamondGlyph{}, pushLoop, ""},                            // olive
	{"tf-ub-bulk", rgb(0x46, 0x99, 0x90), draw.CrossGlyph{}, pushBulk, ""},                          // teal
	{"tf-bd-bulk", rgb(0xC9, 0x9A, 0x00), draw.PlusGlyph{}, pushBulk, ""},                           // mustard
	{"cl-ub", rgb(0x91, 0x1E, 0xB4), pentagonGlyph{filled: true}, pushCopy, stealCopy},              // purple
	{"cl-bd", rgb(0x9A, 0x63, 0x24), pentagonGlyph{}, pushCopy, ""},                                 // brown
	{"mutex", rgb(0x70, 0x70, 0x70), triangleGlyph{right: true, filled: true}, pushCopy, stealCopy}, // grey
}

// implementations are the contenders of the scheduler benchmarks
// (BenchmarkForkJoin, BenchmarkNQueens, BenchmarkBlockingWalk,
// BenchmarkInject): the pool in its forms, on each queue, and plain Go
// doing the same work. They are drawn beside each other, never beside the
// queues, so they take the queues' colours and markers again, each its own
// among them: the forms of the pool on a queue in that queue's colours
// (bq's blues, lf's reds, cl-ub's purple and browns), plain Go in green and
// orange. An implementation not listed here takes the next style after the
// queues' (see report.look).
var implementations = []contender{
	{name: "pool-bq", color: rgb(0x43, 0x63, 0xD8), glyph: draw.CircleGlyph{}},                          // blue
	{name: "join-bq", color: rgb(0x2F, 0xB8, 0xD9), glyph: draw.BoxGlyph{}},                             // cyan
	{name: "cps-bq", color: rgb(0x00, 0x00, 0x75), glyph: draw.RingGlyph{}},                             // navy
	{name: "pool-lf", color: rgb(0xE6, 0x19, 0x4B), glyph: draw.PyramidGlyph{}},                         // red
	{name: "join-lf", color: rgb(0xF0, 0x32, 0xE6), glyph: triangleGlyph{down: true, filled: true}},     // magenta
	{name: "cps-lf", color: rgb(0x80, 0x00, 0x00), glyph: draw.TriangleGlyph{}},                         // maroon
	{name: "pool-cl-ub", color: rgb(0x91, 0x1E, 0xB4), glyph: pentagonGlyph{filled: true}},              // purple
	{name: "join-cl-ub", color: rgb(0x9A, 0x63, 0x24), glyph: pentagonGlyph{}},                          // brown
	{name: "cps-cl-ub", color: rgb(0x80, 0x80, 0x00), glyph: filledDiamondGlyph{}},                      // olive
	{name: "goroutines", color: rgb(0x3C, 0xB4, 0x4B), glyph: draw.SquareGlyph{}},                       // green
	{name: "errgroup", color: rgb(0xF5, 0x82, 0x31), glyph: triangleGlyph{down: true}},                  // orange
	{name: "channel", color: rgb(0x46, 0x99, 0x90), glyph: draw.CrossGlyph{}},                           // teal
	{name: "pool", color: rgb(0xC9, 0x9A, 0x00), glyph: draw.PlusGlyph{}},                               // mustard
	{name: "pool-max16", color: rgb(0x70, 0x70, 0x70), glyph: triangleGlyph{right: true, filled: true}}, // grey
}

// implementationIndex returns the place of an implementation in
// implementations, or -1.
func implementationIndex(name string) int {
	return slices.IndexFunc(implementations, func(c contender) bool { return c.name == name })
}

// batchPanels are the panels of the batch-push plot, in order: the
// contenders whose batch description is desc, under title. Queues the
// report does not know go into a last panel of their own.
var batchPanels = []struct{ desc, title string }{
	{pushCopy, "PushBatch, a copy"},
	{pushBulk, "Taskflow v4's bulk push"},
	{pushLoop, "a loop of Push (Taskflow, as the paper)"},
	{pushList, "PushList of a List built untimed"},
}

// contenderIndex returns the place of a contender in contenders, or -1.
func contenderIndex(name string) int {
	return slices.IndexFunc(contenders, func(c contender) bool { return c.name == name })
}

// timedNote returns the caption line that says what a benchmark times for
// each of the queues names, grouping the queues that share a description,
// in the order of their first appearance; what(c) is the description of a
// contender. It returns "" if no queue has one.
func timedNote(names []string, what func(contender) string) string {
	var descs []string
	groups := map[string][]string{}
	for _, n := range names {
		i := contenderIndex(n)
		if i < 0 || what(contenders[i]) == "" {
			continue
		}
		d := what(contenders[i])
		if groups[d] == nil {
			descs = append(descs, d)
		}
		groups[d] = append(groups[d], n)
	}
	if len(descs) == 0 {
		return ""
	}
	parts := make([]string, len(descs))
	for i, d := range descs {
		parts[i] = strings.Join(groups[d], ", ") + ": " + d
	}
	return "What is timed. " + strings.Join(parts, ". ") + "."
}

// stealLooks are the steal choices of BenchmarkStealAmount, each with a
// colour and a marker of its own. Auto, the scheduler's own choice, is
// red to stand out. One item is green, the proportions blue, darker for
// a larger one. A choice not listed takes a queue's style (see
// stealLook).
var stealLooks = []contender{
	{name: stealAuto, color: rgb(0xE6, 0x19, 0x4B), glyph: draw.CircleGlyph{}},                  // red
	{name: "one", color: rgb(0x3C, 0xB4, 0x4B), glyph: draw.SquareGlyph{}},                      // green
	{name: "0.1", color: rgb(0x2F, 0xB8, 0xD9), glyph: draw.BoxGlyph{}},                         // cyan
	{name: "0.5", color: rgb(0x43, 0x63, 0xD8), glyph: draw.PyramidGlyph{}},                     // blue
	{name: "0.9", color: rgb(0x00, 0x00, 0x75), glyph: triangleGlyph{down: true, filled: true}}, // navy
}

// stealLook returns how a steal choice is drawn: its own style, or for
// the k-th choice not in stealLooks, the k-th style after the queues'.
func stealLook(name string, k int) style {
	i := slices.IndexFunc(stealLooks, func(c contender) bool { return c.name == name })
	if i < 0 {
		return queueStyle(len(contenders) + k)
	}
	st := queueStyle(0) // a contender's line and bar, in the choice's colour and marker
	st.color, st.glyph = stealLooks[i].color, stealLooks[i].glyph
	return st
}
