package measure

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"workbench/experiments/lab/expdir"
)

// A tool whose run -h lists neither flag (an older pure-count) knows
// neither; probeFeatures keeps only what every build knows.
func TestProbeFeatures(t *testing.T) {
	dir := t.TempDir()
	write := func(name, usage string) expdir.Build {
		d := filepath.Join(dir, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		script := "#!/bin/sh\nprintf '" + usage + "' >&2\nexit 2\n"
		if err := os.WriteFile(filepath.Join(d, "pure-count"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return expdir.Build{Dir: d}
	}
	old := write("old", "Usage of pure-count run:\\n  -regions K\\n    \\tcount K regions\\n")
	both := write("new", "Usage of pure-count run:\\n  -gate\\n    \\talternate\\n  -rerun\\n    \\trerun\\n")
	gateOnly := write("gate", "Usage of pure-count run:\\n  -gate\\n    \\talternate\\n")
	ctx := context.Background()
	for _, tc := range []struct {
		builds []expdir.Build
		want   Features
	}{
		{[]expdir.Build{both, both}, Features{Gate: true, Rerun: true}},
		{[]expdir.Build{old, both}, Features{}},
		{[]expdir.Build{both, gateOnly}, Features{Gate: true}},
		{[]expdir.Build{{Dir: filepath.Join(dir, "missing")}, both}, Features{}},
	} {
		if got := ProbeFeatures(ctx, tc.builds, []string{"pure-count"}); got != tc.want {
			t.Errorf("%v: got %+v, want %+v", tc.builds, got, tc.want)
		}
	}
}
