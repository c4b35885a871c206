package note

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/judge"
)

// TopFunctions is how many functions the note lists per workload in "Where
// the instructions moved".
const TopFunctions = 10

// Move is a workload whose instruction count moved: its instruction metric
// got better or worse, or its confidence interval excludes no change.
type Move struct {
	// Workload is the workload's name; Metric its instruction metric.
	Workload string
	Metric   judge.MetricResult
	// Before and After are the profiles' paths relative to the experiment
	// directory, with forward slashes.
	Before, After string
	// Missing lists those of Before and After that do not exist.
	Missing []string
	// Err is why the profiles could not be compared, when they exist.
	Err error
	// Diff is the comparison of the two profiles; nil when Missing or Err
	// says why not.
	Diff *ProfileDiff
}

// ProfileDiff compares the flat values of two profiles function by function.
type ProfileDiff struct {
	// SampleType is the sample type compared: the after profile's default
	// (pprof's choice for -top), found by name in the before profile.
	SampleType string
	// BeforeTotal and AfterTotal are the sums of all samples' values.
	BeforeTotal, AfterTotal int64
	// Changed is how many functions' flat values differ.
	Changed int
	// Top are the functions with the largest absolute change in flat value,
	// at most TopFunctions, by |Delta| descending, then by name.
	Top []FuncDelta
}

// FuncDelta is one function's flat value in both profiles.
type FuncDelta struct {
	// Function is the function's name (a location's innermost function; its
	// address when it has none).
	Function string
	// Before and After are its flat values; Delta is After-Before.
	Before, After, Delta int64
}

// moved reports whether an instruction metric moved beyond its noise: a
// verdict of worse or better, or an interval that lies wholly beyond the
// noise the same build shows against itself (for exact counts, none). A
// move within the noise is not worth a profile diff: an A/A run shows one.
func moved(m judge.MetricResult) bool {
	if len(m.Pairs) == 0 {
		return false
	}
	n := m.Noise.Spread
	return m.Verdict == judge.Worse || m.Verdict == judge.Better || m.Ratio.Lo > 1+n || m.Ratio.Hi < 1-n
}

// findMoves lists the workloads of rep whose instruction count moved and
// compares their profiles from dir/profiles.
func findMoves(dir expdir.Dir, rep judge.Report) []Move {
	var out []Move
	for _, w := range rep.Workloads {
		for _, m := range w.Metrics {
			if m.Metric.Class != judge.ClassInstructions || !moved(m) {
				continue
			}
			mv := Move{
				Workload: w.Workload,
				Metric:   m,
				Before:   filepath.ToSlash(expdir.ProfilePath(w.Workload, "before")),
				After:    filepath.ToSlash(expdir.ProfilePath(w.Workload, "after")),
			}
			var profs [2]*profile.Profile
			for i, rel := range []string{mv.Before, mv.After} {
				p, err := readProfile(dir.Path(filepath.FromSlash(rel)))
				switch {
				case errors.Is(err, os.ErrNotExist):
					mv.Missing = append(mv.Missing, rel)
				case err != nil && mv.Err == nil:
					mv.Err = fmt.Errorf("%s: %w", rel, err)
				}
				profs[i] = p
			}
			if len(mv.Missing) == 0 && mv.Err == nil {
				mv.Diff, mv.Err = diffProfiles(profs[0], profs[1], TopFunctions)
			}
			out = append(out, mv)
		}
	}
	return out
}

// readProfile parses the pprof profile at path. Errors other than a
// missing file lose the path, which the caller names relative to the
// experiment.
func readProfile(path string) (*profile.Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		if pe, ok := errors.AsType[*os.PathError](err); ok && !errors.Is(err, os.ErrNotExist) {
			return nil, pe.Err
		}
		return nil, err
	}
	defer f.Close()
	return profile.Parse(f)
}

// diffProfiles sums the flat values of before and after per function name
// (recursion levels merged: recursionFree), in the after profile's default
// sample type, and returns the top
// functions by absolute change.
func diffProfiles(before, after *profile.Profile, top int) (*ProfileDiff, error) {
	ia, err := after.SampleIndexByName("")
	if err != nil || ia < 0 {
		return nil, fmt.Errorf("the after profile has no sample type")
	}
	st := after.SampleType[ia].Type
	ib := slices.IndexFunc(before.SampleType, func(v *profile.ValueType) bool { return v.Type == st })
	if ib < 0 {
		return nil, fmt.Errorf("the before profile has no %q samples, which the after profile's default sample type is", st)
	}
	d := &ProfileDiff{SampleType: st}
	fb, tb := flat(before, ib)
	fa, ta := flat(after, ia)
	d.BeforeTotal, d.AfterTotal = tb, ta
	var all []FuncDelta
	for name, v := range fb {
		all = append(all, FuncDelta{Function: name, Before: v, After: fa[name]})
	}
	for name, v := range fa {
		if _, ok := fb[name]; !ok {
			all = append(all, FuncDelta{Function: name, After: v})
		}
	}
	var changed []FuncDelta
	for _, f := range all {
		f.Delta = f.After - f.Before
		if f.Delta != 0 {
			changed = append(changed, f)
		}
	}
	// Map iteration order is random: the sort decides the order alone, and
	// names are unique, so it is total.
	slices.SortFunc(changed, func(a, b FuncDelta) int {
		return cmp.Or(cmp.Compare(abs64(b.Delta), abs64(a.Delta)), strings.Compare(a.Function, b.Function))
	})
	d.Changed = len(changed)
	d.Top = changed[:min(top, len(changed))]
	return d, nil
}

// flat returns each function's flat value in sample index i, the value of
// the samples whose leaf location is in it, and the profile's total.
func flat(p *profile.Profile, i int) (map[string]int64, int64) {
	out := make(map[string]int64)
	var total int64
	for _, s := range p.Sample {
		if i >= len(s.Value) {
			continue
		}
		v := s.Value[i]
		total += v
		name := "(unknown)"
		if len(s.Location) > 0 {
			loc := s.Location[0]
			switch {
			case len(loc.Line) > 0 && loc.Line[0].Function != nil:
				// Line[0] is the innermost of inlined frames: pprof gives
				// it the flat value.
				name = loc.Line[0].Function.Name
			default:
				name = fmt.Sprintf("0x%x", loc.Address)
			}
		}
		out[recursionFree(name)] += v
	}
	return out, total
}

// recursionFree returns name without callgrind's recursion level ("f'2"
// is f called from within f: callgrind's --separate-recs, which its
// default sets to 2), so that one function's flat value is one line. In
// Go programs callgrind's shadow stack is
// confused by goroutine stack switches, so how a function's cost divides
// among its levels differs from process to process: in a difference of two
// processes (a Go benchmark's N2 and N1 runs) the levels alone can show
// large opposite changes, and even negative values, that cancel once
// summed.
func recursionFree(name string) string {
	i := strings.LastIndexByte(name, '\'')
	if i <= 0 || i == len(name)-1 {
		return name
	}
	for _, c := range name[i+1:] {
		if c < '0' || c > '9' {
			return name
		}
	}
	return name[:i]
}

// abs64 returns |x|.
func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
