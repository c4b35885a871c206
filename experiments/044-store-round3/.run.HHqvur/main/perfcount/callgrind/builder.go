package callgrind

import (
	"fmt"
	"math"

	"github.com/google/pprof/profile"
)

// builder accumulates the pprof profile.
type builder struct {
	prof  *profile.Profile
	funcs map[[3]string]*profile.Function // name, file, object
	locs  map[site]*profile.Location
	maps  map[string]*profile.Mapping // by object
	split splitter
}

// mapping returns the pprof mapping for an ELF object. Mappings carry
// only the object's name: the code is symbolized already, and addresses
// are not kept.
func (b *builder) mapping(object string) *profile.Mapping {
	m, ok := b.maps[object]
	if !ok {
		m = &profile.Mapping{ID: uint64(len(b.prof.Mapping) + 1), File: object, HasFunctions: true, HasFilenames: true, HasLineNumbers: true}
		b.maps[object] = m
		b.prof.Mapping = append(b.prof.Mapping, m)
	}
	return m
}

// newBuilder starts a profile with one sample type per event.
func newBuilder(p *Profile, events []string) *builder {
	prof := &profile.Profile{Period: 1}
	seen := make(map[string]bool)
	for _, e := range events {
		name := SampleTypeName(e)
		for seen[name] {
			name = "callgrind_" + name // an event named like another's type
		}
		seen[name] = true
		prof.SampleType = append(prof.SampleType, &profile.ValueType{Type: name, Unit: "count"})
	}
	prof.DefaultSampleType = prof.SampleType[0].Type
	prof.PeriodType = &profile.ValueType{Type: prof.SampleType[0].Type, Unit: "count"}
	if p.Creator != "" {
		prof.Comments = append(prof.Comments, "creator: "+p.Creator)
	}
	if len(p.Parts) > 0 && p.Parts[0].Cmd != "" {
		prof.Comments = append(prof.Comments, "cmd: "+p.Parts[0].Cmd)
	}
	prof.Comments = append(prof.Comments, "converted from callgrind output by workbench/perfcount/callgrind; stacks above the first frame are inferred, see its package doc")
	return &builder{
		prof:  prof,
		funcs: make(map[[3]string]*profile.Function),
		locs:  make(map[site]*profile.Location),
		maps:  make(map[string]*profile.Mapping),
	}
}

// function returns the pprof function for f's code in file.
func (b *builder) function(f *gfunc, file string) *profile.Function {
	k := [3]string{f.key.name, file, f.key.object}
	pf, ok := b.funcs[k]
	if !ok {
		pf = &profile.Function{ID: uint64(len(b.prof.Function) + 1), Name: f.key.name, SystemName: f.key.name, Filename: file}
		b.funcs[k] = pf
		b.prof.Function = append(b.prof.Function, pf)
	}
	return pf
}

// location returns the pprof location of a position in a function.
func (b *builder) location(s site) (*profile.Location, error) {
	if loc, ok := b.locs[s]; ok {
		return loc, nil
	}
	if s.pos.line > math.MaxInt64 {
		return nil, fmt.Errorf("callgrind: line %d of %s: %w", s.pos.line, s.fn.key.name, ErrOverflow)
	}
	loc := &profile.Location{
		ID:      uint64(len(b.prof.Location) + 1),
		Mapping: b.mapping(s.fn.key.object),
		Line:    []profile.Line{{Function: b.function(s.fn, s.pos.file), Line: int64(s.pos.line)}},
	}
	b.locs[s] = loc
	b.prof.Location = append(b.prof.Location, loc)
	return loc, nil
}

// addFunction adds f's self cost, line by line, spread over the caller
// tree (nil for flat stacks).
func (b *builder) addFunction(f *gfunc, tree *callerNode) error {
	for _, l := range f.lines {
		leaf, err := b.location(site{f, l.pos})
		if err != nil {
			return err
		}
		for _, v := range l.cost {
			if v > math.MaxInt64 {
				return fmt.Errorf("callgrind: cost %d of %s does not fit a pprof sample value: %w", v, f.key.name, ErrOverflow)
			}
		}
		if tree == nil {
			b.sample([]*profile.Location{leaf}, l.cost)
			continue
		}
		if err := b.spread(tree, []*profile.Location{leaf}, l.cost); err != nil {
			return err
		}
	}
	return nil
}

// spread adds the cost that reaches node n, stack being the frames from
// the leaf to n: the share that stays at n becomes a sample, the rest is
// split over n's children. Each split is exact in integers.
func (b *builder) spread(n *callerNode, stack []*profile.Location, cost []uint64) error {
	ne := len(cost)
	shares := make([]uint64, len(n.weights)*ne) // shares[i*ne+e]: node i, event e
	for e, v := range cost {
		b.split.apportion(v, n.weights)
		for i, s := range b.split.out {
			shares[i*ne+e] = s
		}
	}
	b.sample(stack, shares[:ne])
	for i, child := range n.children {
		share := shares[(i+1)*ne : (i+2)*ne]
		if allZero(share) {
			continue
		}
		loc, err := b.location(child.site)
		if err != nil {
			return err
		}
		if err := b.spread(child, append(stack[:len(stack):len(stack)], loc), share); err != nil {
			return err
		}
	}
	return nil
}

// sample adds a sample unless all its values are zero. The caller has
// checked that the values fit an int64.
func (b *builder) sample(stack []*profile.Location, cost []uint64) {
	if allZero(cost) {
		return
	}
	vals := make([]int64, len(cost))
	for i, v := range cost {
		vals[i] = int64(v)
	}
	b.prof.Sample = append(b.prof.Sample, &profile.Sample{Location: stack, Value: vals})
}

func allZero(v []uint64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}
