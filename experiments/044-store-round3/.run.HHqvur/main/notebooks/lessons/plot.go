package lessons

import (
	"image/color"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one set of runs, in the order they ran.
type Series struct {
	Name   string
	Values []float64
}

// StripPlot writes a PNG to file: one column per series, each run a point
// at its distance from the series' median in percent, runs spread left to
// right in the order they ran; a line at 0.
func StripPlot(file, title string, series []Series) error {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = "distance from the median (%)"
	var names []string
	colours := []color.Color{color.RGBA{0xd6, 0x27, 0x28, 0xff}, color.RGBA{0x1f, 0x77, 0xb4, 0xff}, color.RGBA{0x2c, 0xa0, 0x2c, 0xff}}
	for i, s := range series {
		med := Summarize(s.Values).Median
		pts := make(plotter.XYs, len(s.Values))
		for k, v := range s.Values {
			off := 0.0
			if len(s.Values) > 1 {
				off = -0.3 + 0.6*float64(k)/float64(len(s.Values)-1)
			}
			pts[k] = plotter.XY{X: float64(i) + off, Y: 100 * (v - med) / med}
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		sc.GlyphStyle.Color = colours[i%len(colours)]
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
		sc.GlyphStyle.Radius = vg.Points(2.5)
		p.Add(sc)
		names = append(names, s.Name)
	}
	zero := plotter.NewFunction(func(float64) float64 { return 0 })
	zero.Color = color.Gray{0x80}
	p.Add(zero)
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.5, float64(len(series))-0.5
	w, err := p.WriterTo(16*vg.Centimeter, 9*vg.Centimeter, "png")
	if err != nil {
		return err
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := w.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
