package pairs

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"workbench/experiments/lab/expdir"
)

// features are the timing flags of pure-count's run that a built subject
// tool knows. Older revisions predate them, and a comparison uses only what
// both sides know, so that both are measured the same way.
type features struct {
	gate  bool // run --gate: regions alternate with another process's
	rerun bool // run --rerun: regions rerun on one preparation
}

// probeFeatures asks each build's tools for their run flags (run -h) and
// returns what all of them know.
func probeFeatures(ctx context.Context, builds []expdir.Build, tools []string) features {
	all := features{gate: true, rerun: true}
	for _, b := range builds {
		for _, t := range tools {
			f := toolFeatures(ctx, filepath.Join(b.Dir, t))
			all.gate = all.gate && f.gate
			all.rerun = all.rerun && f.rerun
		}
	}
	return all
}

// toolFeatures reads the flags in path's `run -h` (it prints its usage and
// exits with status 2; a tool that does not start knows nothing).
func toolFeatures(ctx context.Context, path string) features {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, path, "run", "-h").CombinedOutput()
	s := string(out)
	return features{gate: strings.Contains(s, "\n  -gate"), rerun: strings.Contains(s, "\n  -rerun")}
}
