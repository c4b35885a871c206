package callgrind

import (
	"fmt"
	"slices"
)

// graph is the call graph of all parts of a profile merged: functions are
// identified by object, file and name across parts, self costs are summed
// per source line, and call edges per call site.
type graph struct {
	events []string
	funcs  []*gfunc
}

// gfunc is one function of the merged graph.
type gfunc struct {
	key   fnKey
	lines []*gline // self cost per (file, line), first-appearance order
	in    []*gedge // edges from callers
	byPos map[gpos]*gline
}

// gpos is a source position; instruction addresses are dropped.
type gpos struct {
	file string
	line uint64
}

type gline struct {
	pos  gpos
	cost []uint64
}

// gedge is the sum of the calls from one caller to one callee at one site.
type gedge struct {
	caller *gfunc
	site   gpos
	cost   []uint64 // inclusive
}

// buildGraph merges the parts of p. Every part must have the same events.
func buildGraph(p *Profile) (*graph, error) {
	g := &graph{events: p.Events()}
	if len(g.events) == 0 {
		return nil, fmt.Errorf("callgrind: profile has no events: %w", ErrNoEvents)
	}
	funcs := make(map[fnKey]*gfunc)
	get := func(f *Function) *gfunc {
		k := fnKey{f.Object, f.File, f.Name}
		gf, ok := funcs[k]
		if !ok {
			gf = &gfunc{key: k, byPos: make(map[gpos]*gline)}
			funcs[k] = gf
			g.funcs = append(g.funcs, gf)
		}
		return gf
	}
	type edgeKey struct {
		caller, callee *gfunc
		site           gpos
	}
	edges := make(map[edgeKey]*gedge)
	for _, part := range p.Parts {
		if !slices.Equal(part.Events, g.events) {
			return nil, fmt.Errorf("callgrind: part %d has events %v, the first part %v: convert each part on its own (a Profile with just that part)", part.Number, part.Events, g.events)
		}
		for _, f := range part.Functions {
			gf := get(f)
			for _, lc := range f.Lines {
				pos := gpos{lc.File, lc.Line}
				gl, ok := gf.byPos[pos]
				if !ok {
					gl = &gline{pos: pos, cost: make([]uint64, len(g.events))}
					gf.byPos[pos] = gl
					gf.lines = append(gf.lines, gl)
				}
				if err := addCosts(gl.cost, lc.Cost); err != nil {
					return nil, fmt.Errorf("callgrind: self cost of %s: %w", f.Name, ErrOverflow)
				}
			}
		}
		for _, c := range part.Calls {
			if c.Count == 0 {
				// A call callgrind did not see being made: it was made
				// while collection was off and was still open when
				// collection began (or when the dump was written). Its
				// inclusive cost is whatever ran since then, and its
				// caller is what callgrind's shadow stack held, which Go's
				// stack copying can leave stale (package doc, "Calls made
				// before counting began"). It is no evidence of who called
				// whom while counting, so inference does not use it.
				continue
			}
			k := edgeKey{get(c.Caller), get(c.Callee), gpos{c.File, c.Line}}
			e, ok := edges[k]
			if !ok {
				e = &gedge{caller: k.caller, site: k.site, cost: make([]uint64, len(g.events))}
				edges[k] = e
				k.callee.in = append(k.callee.in, e)
			}
			if err := addCosts(e.cost, c.Inclusive); err != nil {
				return nil, fmt.Errorf("callgrind: inclusive cost of calls to %s: %w", c.Callee.Name, ErrOverflow)
			}
		}
	}
	return g, nil
}
