package scores

import (
	"math"

	"workbench/pure/app"
)

// New returns the scoreboard's declaration: a table of scores by name,
// the input score and the views total and leaders.
func New() app.App {
	return app.App{
		Name:  "scores",
		Table: app.Table{Name: "scores", Key: "name", Columns: []app.Field{{Name: "score", Type: app.Int}}},
		Inputs: []app.InputDef{{
			Name:   "score",
			Fields: []app.Field{{Name: "points", Type: app.Int}, {Name: "name", Type: app.Text, Body: true}},
			Run:    score,
		}},
		Views: []app.ViewDef{
			{Name: "total", Answer: app.Number, Run: func(t *app.Turn) error { t.SetNumber(t.Sum("score")); return nil }},
			{Name: "leaders", Answer: app.Rows, Run: app.KeyOrder},
		},
	}
}

// score adds points to name's score and answers the name.
func score(t *app.Turn) error {
	name, points := t.Text("name"), t.Int("points")
	if name == "" {
		return app.Errorf(400, `field "name": empty; send the name as the body`)
	}
	r, ok := t.Get(name)
	if !ok {
		r = t.New(name)
	}
	s := r.Int("score")
	if points > 0 && s > math.MaxInt64-points || points < 0 && s < math.MinInt64-points {
		return app.Errorf(409, "the score of %q would overflow int64; send fewer points", name)
	}
	r.SetInt("score", s+points)
	t.SetText(name)
	return t.Put(r)
}
