package note

import (
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"workbench/experiments/lab/judge"
)

func TestFormat(t *testing.T) {
	tests := []struct{ got, want string }{
		{formatCount(8695000), "8,695,000"},
		{formatCount(1437512.6), "1,437,513"},
		{formatCount(100), "100"},
		{formatCount(99.987), "99.99"},
		{formatCount(12.345), "12.35"},
		{formatCount(0), "0"},
		{formatCount(-1234), "−1,234"},
		{formatDelta(1234567), "+1,234,567"},
		{formatDelta(-56), "−56"},
		{formatDelta(0), "0"},
		{formatChange(1.02), "+2.00 %"},
		{formatChange(0.9944), "−0.56 %"},
		{formatChange(1), "0.00 %"},
		{formatChange(0.87), "−13.00 %"},
		{formatSpread(0.00035), "0.035 %"},
		{formatSpread(0.0123), "1.2 %"},
		{formatSpread(0), "0 %"},
		{formatLimit(0.01), "1 %"},
		{formatLimit(0.005), "0.5 %"},
		{formatLimit(0.03), "3 %"},
		{formatSeconds(4.26e-5), "42.60 µs"},
		{formatSeconds(3.5e-3), "3.500 ms"},
		{formatSeconds(2.5), "2.500 s"},
		{formatSeconds(8.8e-7), "880.0 ns"},
		{formatSeconds(9.99996e-4), "1.000 ms"},
		{formatBytes(5 * 1024 * 1024), "5.000 MiB"},
		{formatBytes(1311 * 1024), "1.280 MiB"},
		{formatBytes(512), "512 B"},
		{formatRate(44527.4), "44,527/s"},
		{formatP(0.03125), "0.0312"},
		{formatP(1), "1.00"},
		{formatP(0.00012), "1.20e-04"},
		{formatConfidence(0.9375), "93.8 %"},
		{formatConfidence(0.95), "95 %"},
		{sig(9.9996, 4), "10.00"},
		{judge.FormatPairs([]int{1, 2, 4, 5, 6}), "1, 2 and 4–6"},
		{judge.FormatPairs(nil), "none"},
		{plural(1, "run"), "1 run"},
		{plural(12, "run"), "12 runs"},
		{code("a`b"), "``a`b``"},
		{code("`x"), "`` `x ``"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}

func TestCodeBlock_Fence(t *testing.T) {
	var b strings.Builder
	codeBlock(&b, "text", "a\n```\nb\n")
	if want := "````text\na\n```\nb\n````\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// TestDiffProfiles_Order checks the order of the top functions: by
// absolute change, then by name, and that unchanged functions are left out.
func TestDiffProfiles_Order(t *testing.T) {
	mk := func(vals map[string]int64, names ...string) *profile.Profile {
		p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "instructions", Unit: "count"}}}
		for i, n := range names {
			f := &profile.Function{ID: uint64(i + 1), Name: n}
			l := &profile.Location{ID: uint64(i + 1), Line: []profile.Line{{Function: f}}}
			p.Function, p.Location = append(p.Function, f), append(p.Location, l)
			p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{l}, Value: []int64{vals[n]}})
		}
		return p
	}
	names := []string{"a", "b", "c", "d", "e"}
	before := mk(map[string]int64{"a": 10, "b": 10, "c": 10, "d": 10, "e": 10}, names...)
	after := mk(map[string]int64{"a": 15, "b": 5, "c": 10, "d": 30, "e": 11}, names...)
	d, err := diffProfiles(before, after, 3)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range d.Top {
		got = append(got, f.Function)
	}
	if strings.Join(got, " ") != "d a b" || d.Changed != 4 || d.BeforeTotal != 50 || d.AfterTotal != 71 {
		t.Errorf("top %v, changed %d, totals %d→%d; want d a b, 4, 50→71", got, d.Changed, d.BeforeTotal, d.AfterTotal)
	}
	// Callgrind's recursion levels of one function are one line: here
	// f's cost moved between its levels (as it does between two processes
	// of a Go program) and g's did not change.
	lv := []string{"f", "f'2", "g'3", "f'x", "'2"}
	d, err = diffProfiles(mk(map[string]int64{"f": 100, "f'2": 50, "g'3": 7, "f'x": 1, "'2": 1}, lv...),
		mk(map[string]int64{"f": 20, "f'2": 131, "g'3": 7, "f'x": 1, "'2": 1}, lv...), 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Top) != 1 || d.Top[0] != (FuncDelta{Function: "f", Before: 150, After: 151, Delta: 1}) || d.Changed != 1 {
		t.Errorf("recursion levels: top %+v, changed %d; want f 150 -> 151 alone", d.Top, d.Changed)
	}
	other := &profile.Profile{SampleType: []*profile.ValueType{{Type: "cycles"}}}
	if _, err := diffProfiles(other, after, 3); err == nil {
		t.Error("profiles of different sample types compared")
	}
}
