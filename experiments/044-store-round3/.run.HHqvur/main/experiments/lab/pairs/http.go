package pairs

import (
	"context"
	"path/filepath"

	"workbench/experiments/lab/build"
	"workbench/experiments/lab/measure"
)

// HarnessLoad is the load generator of HTTP workloads (suite lines with
// load=): built from the harness's checkout, not from the revisions.
const HarnessLoad = "pure-load"

// httpControls builds the harness's pure-load and sets the HTTP controls
// when the suite has HTTP workloads; otherwise it does nothing.
func (r *runner) httpControls(ctx context.Context, c *measure.Controls) error {
	if !r.su.HasHTTP() {
		return nil
	}
	paths, err := build.Harness(ctx, r.o.Repo, filepath.Join(r.runDir, "harness"), HarnessLoad)
	if err != nil {
		return err
	}
	r.logf("harness: %s built from %s", HarnessLoad, r.o.Repo)
	if note := c.SetHTTP(ctx, paths[0]); note != "" {
		c.Notes = append(c.Notes, note)
	}
	return nil
}
