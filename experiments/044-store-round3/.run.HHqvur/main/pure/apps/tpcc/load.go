package tpcc

import (
	"workbench/pure/app"
	"workbench/pure/store"
)

// Seed writes the initial database at scale s from seed into st, for
// New's app to load at Start.
func Seed(st *store.Store, s Scale, seed uint64) error {
	return app.Load(st, New(), func(l *app.Loader) error {
		var kb []byte
		ids := make([]int64, 4)
		return Generate(s, seed, func(table string, vals []Value) error {
			d := def(table)
			for i, k := range d.Key {
				ids[i] = vals[k].I
			}
			kb = appendKey(kb[:0], d, ids[:len(d.Key)]...)
			r := l.New(table, string(kb))
			for i, c := range d.Cols {
				if IsText(c) {
					r.SetTextAt(i, vals[i].S)
				} else {
					r.SetIntAt(i, vals[i].I)
				}
			}
			return l.Put(r)
		})
	})
}
