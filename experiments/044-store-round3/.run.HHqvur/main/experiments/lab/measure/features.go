package measure

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"workbench/experiments/lab/expdir"
)

// Features are the timing flags of pure-count's run that a built subject
// tool knows. Older revisions predate them, and a comparison uses only what
// both sides know, so that both are measured the same way.
type Features struct {
	// Gate: run --gate, regions alternate with another process's.
	Gate bool
	// Rerun: run --rerun, regions rerun on one preparation.
	Rerun bool
}

// ProbeFeatures asks each build's tools for their run flags (run -h) and
// returns what all of them know.
func ProbeFeatures(ctx context.Context, builds []expdir.Build, tools []string) Features {
	all := Features{Gate: true, Rerun: true}
	for _, b := range builds {
		for _, t := range tools {
			f := toolFeatures(ctx, filepath.Join(b.Dir, t))
			all.Gate = all.Gate && f.Gate
			all.Rerun = all.Rerun && f.Rerun
		}
	}
	return all
}

// toolFeatures reads the flags in path's `run -h` (it prints its usage and
// exits with status 2; a tool that does not start knows nothing).
func toolFeatures(ctx context.Context, path string) Features {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, path, "run", "-h").CombinedOutput()
	s := string(out)
	return Features{Gate: strings.Contains(s, "\n  -gate"), Rerun: strings.Contains(s, "\n  -rerun")}
}
