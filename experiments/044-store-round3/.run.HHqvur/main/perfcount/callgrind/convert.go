package callgrind

import (
	"fmt"
	"math"

	"github.com/google/pprof/profile"
)

// Stacks selects how Convert builds the stacks of pprof samples.
type Stacks int

const (
	// StacksCallers infers caller chains from callgrind's call edges
	// (see package doc). It is the default.
	StacksCallers Stacks = iota
	// StacksFlat gives every sample a stack of one frame, the function
	// and line the cost was spent in. Cumulative costs are then the same
	// as flat ones.
	StacksFlat
)

// Options controls Convert. The zero value is DefaultOptions.
type Options struct {
	// Stacks selects how sample stacks are built.
	Stacks Stacks

	// MaxDepth bounds the number of caller frames of an inferred stack;
	// 0 means DefaultMaxDepth.
	MaxDepth int

	// MinWeight is the smallest share of a function's cost that an
	// inferred caller branch may carry before it is cut; 0 means
	// DefaultMinWeight. Smaller values give more, longer stacks.
	MinWeight float64
}

// Defaults for Options.
const (
	DefaultMaxDepth  = 64
	DefaultMinWeight = 0.01
)

// DefaultOptions are the options Convert uses for a zero Options.
var DefaultOptions = Options{Stacks: StacksCallers, MaxDepth: DefaultMaxDepth, MinWeight: DefaultMinWeight}

// Convert makes a pprof profile of p: one sample type per event (unit
// "count"; the first event, usually Ir as "instructions", is the
// default), one pprof function per callgrind function and source file,
// and one location per function and source line. All parts are summed.
//
// For every event, the sample values sum exactly to p.SelfTotal(event),
// whatever the Stacks option: only the stacks are inferred, never the
// costs. The error wraps ErrOverflow if a cost does not fit an int64.
func Convert(p *Profile, opt Options) (*profile.Profile, error) {
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = DefaultMaxDepth
	}
	if opt.MinWeight <= 0 {
		opt.MinWeight = DefaultMinWeight
	}
	g, err := buildGraph(p)
	if err != nil {
		return nil, err
	}
	for _, e := range g.events {
		total, err := p.SelfTotal(e)
		if err != nil {
			return nil, err
		}
		if total > math.MaxInt64 {
			return nil, fmt.Errorf("callgrind: total %s %d does not fit a pprof sample value: %w", e, total, ErrOverflow)
		}
	}
	b := newBuilder(p, g.events)
	for _, f := range g.funcs {
		if len(f.lines) == 0 {
			continue
		}
		var tree *callerNode
		if opt.Stacks == StacksCallers {
			tree = inferCallers(f, opt.MaxDepth, opt.MinWeight)
		}
		if err := b.addFunction(f, tree); err != nil {
			return nil, err
		}
	}
	if err := b.prof.CheckValid(); err != nil {
		return nil, fmt.Errorf("callgrind: converted profile is invalid (a bug in package callgrind): %w", err)
	}
	return b.prof, nil
}
