package note

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"workbench/experiments/lab/judge"
)

// Plot sizes: 16×10 cm, wider when there are more than five workload and
// metric columns.
const (
	plotWidth     = 16 * vg.Centimeter
	plotHeight    = 10 * vg.Centimeter
	plotPerColumn = 3 * vg.Centimeter
)

// Colours of the plot.
var (
	colourPoint     = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	colourUnused    = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	colourThreshold = color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff}
)

// column is one workload's deciding metric in the plot.
type column struct {
	label     string
	threshold float64
	used      plotter.XYs
	unused    plotter.XYs
	// ratio is the metric's median change with its interval, verdict its
	// verdict; ratio is zero when the metric compared no pair.
	ratio   judge.Summary
	verdict judge.Verdict
}

// verdictColour colours a column's median and interval by its verdict.
func verdictColour(v judge.Verdict) color.Color {
	switch v {
	case judge.Worse:
		return color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	case judge.Better:
		return color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}
	case judge.Unknown:
		return color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}
	}
	return color.RGBA{R: 0x30, G: 0x30, B: 0x30, A: 0xff}
}

// runeWidth is about the width of one character of a tick label, so that
// each column is wide enough for its label and labels never collide.
const runeWidth = 0.2 * vg.Centimeter

// Plot writes the plot of the per-pair ratios after/before to w as a PNG:
// one column per workload and deciding metric, one point per pair (hollow
// when the metric did not use the pair), a solid line at 1 and dashed
// lines at each column's threshold on either side, and the median change
// with its interval coloured by the verdict (addInterval). Each column is
// wide enough for its label, so labels never collide. The y axis is labelled
// in changes ("+2 %"). The image is 16×10 cm at gonum/plot's default
// 96 dpi, wider when there are more than five columns.
func (e *Experiment) Plot(w io.Writer) error {
	cols := e.plotColumns()

	p := plot.New()
	p.Title.Text = "Experiment " + e.Name + ": change after/before per pair"
	p.Y.Label.Text = "change after/before"
	p.Y.Tick.Marker = changeTicks{}
	p.X.Min, p.X.Max = -0.5, float64(max(len(cols), 1))-0.5
	if len(cols) == 0 {
		p.X.Label.Text = "no deciding metric to plot"
		p.HideX()
	} else {
		labels := make([]string, len(cols))
		for i, c := range cols {
			labels[i] = c.label
		}
		p.NominalX(labels...)
	}

	// The line of no change, across the plot.
	one, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: 1}, {X: p.X.Max, Y: 1}})
	if err != nil {
		return err
	}
	one.LineStyle.Width = vg.Points(1)
	p.Add(one)
	lo, hi, legends, err := addColumns(p, cols)
	if err != nil {
		return err
	}
	// Room at the top for the legend.
	pad := max((hi-lo)*0.08, 0.002)
	p.Y.Min, p.Y.Max = lo-pad, hi+3*pad
	if legends.used != nil {
		p.Legend.Add("pair used", legends.used)
	}
	if legends.unused != nil {
		p.Legend.Add("pair not used", legends.unused)
	}
	if legends.threshold != nil {
		p.Legend.Add("threshold", legends.threshold)
	}
	if legends.interval != nil {
		p.Legend.Add("median change and its interval, coloured by verdict", legends.interval)
	}
	p.Legend.Top = true

	perColumn := plotPerColumn
	for _, c := range cols {
		for _, l := range strings.Split(c.label, "\n") {
			perColumn = max(perColumn, runeWidth*vg.Length(utf8.RuneCountInString(l)+2))
		}
	}
	width := max(plotWidth, perColumn*vg.Length(len(cols)))
	wt, err := p.WriterTo(width, plotHeight, "png")
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	// Render fully before writing, so that a failure leaves w untouched.
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// changeTicks marks a ratio axis with changes: 1.03 as "+3 %", 1 as "0".
// Marks fall on round changes, 1, 2 or 5 times a power of ten percent,
// about six of them.
type changeTicks struct{}

// Ticks returns the marks between the ratios lo and hi.
func (changeTicks) Ticks(lo, hi float64) []plot.Tick {
	lo, hi = (lo-1)*100, (hi-1)*100
	if !(hi > lo) {
		return nil
	}
	raw := (hi - lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, f := range []float64{2, 5, 10} {
		if step >= raw {
			break
		}
		step = f * mag
	}
	decimals := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	var ticks []plot.Tick
	for i := math.Ceil(lo / step); i*step <= hi+1e-9; i++ {
		v := i * step
		label := strconv.FormatFloat(math.Abs(v), 'f', decimals, 64) + " %"
		switch {
		case math.Abs(v) < step/2:
			v, label = 0, "0"
		case v > 0:
			label = "+" + label
		default:
			label = minus + label
		}
		ticks = append(ticks, plot.Tick{Value: 1 + v/100, Label: label})
	}
	return ticks
}

// plotColumns returns one column per deciding metric of each workload, with
// its pairs' ratios spread left to right in pair order, so that a pattern
// over time shows.
func (e *Experiment) plotColumns() []column {
	var cols []column
	for _, wr := range e.Report.Workloads {
		for j, m := range wr.Metrics {
			if !m.Decides {
				continue
			}
			c := column{label: wr.Workload + "\n" + m.Metric.Name, threshold: m.Threshold, verdict: m.Verdict}
			if len(m.Pairs) > 0 {
				c.ratio = m.Ratio
			}
			x := float64(len(cols))
			n := len(wr.Pairs)
			for k, p := range wr.Pairs {
				cell := p.Cells[j]
				if !cell.Present || cell.Ratio <= 0 {
					continue
				}
				// Pairs spread left to right in pair order, so that a
				// pattern over time shows.
				off := 0.0
				if n > 1 {
					off = -0.25 + 0.5*float64(k)/float64(n-1)
				}
				pt := plotter.XY{X: x + off, Y: cell.Ratio}
				if cell.Used {
					c.used = append(c.used, pt)
				} else {
					c.unused = append(c.unused, pt)
				}
			}
			cols = append(cols, c)
		}
	}
	return cols
}

// plotLegends are the plotters the legend names.
type plotLegends struct {
	used, unused *plotter.Scatter
	threshold    *plotter.Line
	interval     *plotter.Line
}

// addInterval draws a column's median change as a bar across it and its
// interval as a vertical line right of the pairs, coloured by the verdict.
func addInterval(p *plot.Plot, x float64, c column, lg *plotLegends) error {
	ci, err := plotter.NewLine(plotter.XYs{{X: x + 0.35, Y: c.ratio.Lo}, {X: x + 0.35, Y: c.ratio.Hi}})
	if err != nil {
		return err
	}
	med, err := plotter.NewLine(plotter.XYs{{X: x - 0.3, Y: c.ratio.Center}, {X: x + 0.4, Y: c.ratio.Center}})
	if err != nil {
		return err
	}
	for _, l := range []*plotter.Line{ci, med} {
		l.LineStyle.Color = verdictColour(c.verdict)
		l.LineStyle.Width = vg.Points(2)
		p.Add(l)
	}
	lg.interval = ci
	return nil
}

// addColumns draws each column's thresholds and pairs, and returns the
// range of the values drawn and the plotters for the legend.
func addColumns(p *plot.Plot, cols []column) (lo, hi float64, lg plotLegends, err error) {
	lo, hi = 1.0, 1.0
	for i, c := range cols {
		x := float64(i)
		// The thresholds on either side of no change.
		for _, y := range []float64{1 + c.threshold, 1 - c.threshold} {
			l, err := plotter.NewLine(plotter.XYs{{X: x - 0.4, Y: y}, {X: x + 0.4, Y: y}})
			if err != nil {
				return 0, 0, lg, err
			}
			l.LineStyle.Color = colourThreshold
			l.LineStyle.Width = vg.Points(1)
			l.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(l)
			lg.threshold = l
			lo, hi = min(lo, y), max(hi, y)
		}
		if c.ratio.Center > 0 {
			if err := addInterval(p, x, c, &lg); err != nil {
				return 0, 0, lg, err
			}
			lo, hi = min(lo, c.ratio.Lo), max(hi, c.ratio.Hi)
		}
		for _, set := range []struct {
			xys    plotter.XYs
			used   bool
			legend **plotter.Scatter
		}{{c.used, true, &lg.used}, {c.unused, false, &lg.unused}} {
			if len(set.xys) == 0 {
				continue
			}
			s, err := plotter.NewScatter(set.xys)
			if err != nil {
				return 0, 0, lg, err
			}
			s.GlyphStyle.Radius = vg.Points(2.5)
			if set.used {
				s.GlyphStyle.Shape = draw.CircleGlyph{}
				s.GlyphStyle.Color = colourPoint
			} else {
				s.GlyphStyle.Shape = draw.RingGlyph{}
				s.GlyphStyle.Color = colourUnused
			}
			p.Add(s)
			*set.legend = s
			for _, pt := range set.xys {
				lo, hi = min(lo, pt.Y), max(hi, pt.Y)
			}
		}
	}
	return lo, hi, lg, nil
}
