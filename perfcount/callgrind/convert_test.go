package callgrind

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// sums returns the sum of each sample value column.
func sums(prof *profile.Profile) []int64 {
	out := make([]int64, len(prof.SampleType))
	for _, s := range prof.Sample {
		for i, v := range s.Value {
			out[i] += v
		}
	}
	return out
}

// The acceptance line: for every event, the pprof total is exactly the
// callgrind total, in both stack modes and after a write/read round trip.
func TestConvert_TotalsExact(t *testing.T) {
	for _, fx := range fixtures {
		for _, stacks := range []Stacks{StacksCallers, StacksFlat} {
			t.Run(fmt.Sprintf("%s/stacks=%d", fx.name, stacks), func(t *testing.T) {
				p := parseFixture(t, fx.name)
				prof, err := Convert(p, Options{Stacks: stacks})
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if err := prof.Write(&buf); err != nil {
					t.Fatal(err)
				}
				back, err := profile.Parse(&buf)
				if err != nil {
					t.Fatal(err)
				}
				for _, got := range []*profile.Profile{prof, back} {
					s := sums(got)
					for i, ev := range p.Events() {
						want, err := p.Total(ev)
						if err != nil {
							t.Fatal(err)
						}
						if got.SampleType[i].Type != SampleTypeName(ev) || got.SampleType[i].Unit != "count" {
							t.Errorf("sample type %d = %v, want %s/count", i, got.SampleType[i], SampleTypeName(ev))
						}
						if uint64(s[i]) != want {
							t.Errorf("%s: pprof total %d, callgrind total %d", ev, s[i], want)
						}
					}
				}
				if prof.DefaultSampleType != SampleTypeName(p.Events()[0]) {
					t.Errorf("default sample type %q", prof.DefaultSampleType)
				}
			})
		}
	}
}

// stackStrings renders samples as "fn:line <- fn:line ... = v1 v2", sorted.
func stackStrings(prof *profile.Profile) []string {
	var out []string
	for _, s := range prof.Sample {
		var frames []string
		for _, loc := range s.Location {
			l := loc.Line[0]
			frames = append(frames, fmt.Sprintf("%s:%d", l.Function.Name, l.Line))
		}
		out = append(out, fmt.Sprintf("%s = %v", strings.Join(frames, " <- "), s.Value))
	}
	sort.Strings(out)
	return out
}

func TestConvert_HandmadeStacks(t *testing.T) {
	prof, err := Convert(parseFixture(t, "handmade.callgrind"), DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	// leaf's 700 instructions come 300 from main directly and 400 via
	// helper, so each leaf line is split 3:4 between the two stacks.
	want := []string{
		"helper:40 <- main:11 = [100 4]",
		"helper:41 <- main:11 = [80 6]",
		"helper:7 <- main:11 = [20 0]",
		"leaf:7 <- helper:41 <- main:11 = [343 10]",
		"leaf:7 <- main:13 = [257 8]",
		"leaf:8 <- helper:41 <- main:11 = [57 1]",
		"leaf:8 <- main:13 = [43 1]",
		"main:10 = [30 3]",
		"main:11 = [5 0]",
	}
	if got := stackStrings(prof); !slices.Equal(got, want) {
		t.Errorf("stacks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	flat, err := Convert(parseFixture(t, "handmade.callgrind"), Options{Stacks: StacksFlat})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range flat.Sample {
		if len(s.Location) != 1 {
			t.Errorf("flat sample with %d frames", len(s.Location))
		}
	}
}

// Inferred stacks never repeat a function name of one object (recursion
// is folded into the outermost call) and never exceed MaxDepth+1 frames.
func TestConvert_StackShape(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			for _, depth := range []int{1, 3, DefaultMaxDepth} {
				prof, err := Convert(parseFixture(t, fx.name), Options{MaxDepth: depth})
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range prof.Sample {
					if len(s.Location) > depth+1 {
						t.Errorf("depth %d: sample with %d frames", depth, len(s.Location))
					}
					seen := make(map[[2]string]bool)
					for _, loc := range s.Location {
						k := [2]string{loc.Mapping.File, loc.Line[0].Function.Name}
						if seen[k] {
							t.Errorf("function %s twice in one stack", k)
						}
						seen[k] = true
					}
				}
			}
		})
	}
}

func TestConvert_PartsWithDifferentEvents(t *testing.T) {
	in := "events: Ir\nfn=a\n1 5\ntotals: 5\nevents: Dr\nfn=a\n1 2\n"
	p, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Convert(p, DefaultOptions); err == nil || !strings.Contains(err.Error(), "convert each part on its own") {
		t.Errorf("err = %v", err)
	}
	if _, err := p.Total("Ir"); err == nil {
		t.Errorf("Total(Ir) over a part without Ir: no error")
	}
}

func TestConvert_ValueTooLargeForPprof(t *testing.T) {
	p, err := Parse(strings.NewReader("events: Ir\nfn=a\n1 9223372036854775808\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Convert(p, DefaultOptions); err == nil {
		t.Error("no error for a cost above MaxInt64")
	}
}

func TestApportion(t *testing.T) {
	seed := uint64(20261202)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, seed))
	for range 2000 {
		n := 1 + r.IntN(20)
		w := make([]float64, n)
		for i := range w {
			w[i] = r.Float64()
		}
		var v uint64
		switch r.IntN(3) {
		case 0:
			v = r.Uint64N(100)
		case 1:
			v = r.Uint64N(1 << 40)
		default:
			v = r.Uint64N(1 << 63)
		}
		var s splitter
		s.apportion(v, w)
		var sum uint64
		for _, x := range s.out {
			sum += x
		}
		if sum != v {
			t.Fatalf("apportion(%d, %v) sums to %d", v, w, sum)
		}
	}
	var s splitter
	if s.apportion(10, []float64{1, 1, 2}); !slices.Equal(s.out, []uint64{3, 2, 5}) && !slices.Equal(s.out, []uint64{2, 3, 5}) {
		t.Errorf("apportion(10, 1:1:2) = %v", s.out)
	}
	if s.apportion(7, []float64{0, 0}); !slices.Equal(s.out, []uint64{7, 0}) {
		t.Errorf("apportion(7, 0:0) = %v", s.out)
	}
}

func TestConvert_SampleTypeNamesUnique(t *testing.T) {
	p, err := Parse(strings.NewReader("events: callgrind_instructions Ir instructions\nfn=a\n1 1 2 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	prof, err := Convert(p, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	seen := make(map[string]bool)
	for _, st := range prof.SampleType {
		if seen[st.Type] {
			t.Errorf("sample type %s twice in %v", st.Type, prof.SampleType)
		}
		seen[st.Type] = true
	}
}

// Two dumps of the same region, one where callgrind's shadow stack was left
// stale by Go's stack copying before the region (it holds calls=0 edges such
// as growStackFrames'2 -> cmdMeasure) and one where it was not, convert to
// the same stacks: calls that were open when collection began are no
// evidence of the region's callers and are not used for inference.
func TestConvert_OpenCallsIgnored(t *testing.T) {
	stacks := func(name string) []string {
		prof, err := Convert(parseFixture(t, name), DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		return stackStrings(prof)
	}
	stale, clean := stacks("pure-count-stale.callgrind"), stacks("pure-count-clean.callgrind")
	if !slices.Equal(stale, clean) {
		t.Errorf("stale dump's stacks:\n%s\nclean dump's stacks:\n%s", strings.Join(stale, "\n"), strings.Join(clean, "\n"))
	}
	for _, s := range stale {
		if strings.Contains(s, "growStackFrames") || strings.Contains(s, "main.cmdMeasure") {
			t.Errorf("stack through a call made before counting began: %s", s)
		}
	}
	var sorted bool
	for _, s := range clean {
		if strings.HasPrefix(s, "workbench/perfcount/workload.checkSorted") || strings.Contains(s, "slices.") {
			sorted = true
		}
	}
	if !sorted {
		t.Errorf("no stack of the sort itself in:\n%s", strings.Join(clean, "\n"))
	}
}
