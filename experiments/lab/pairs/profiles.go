package pairs

import (
	"fmt"
	"os"
	"path/filepath"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/measure"
	"workbench/experiments/lab/suite"
	"workbench/perfcount/callgrind"
)

// profileDumpDir is where the callgrind measurements of a cell keep their
// dumps (expdir.Dir.RawProfileDir): only pair 1 keeps them.
func profileDumpDir(expDir string, c measure.Cell) string {
	if c.Pair != 1 {
		return ""
	}
	return expdir.Dir(expDir).RawProfileDir(string(c.Side))
}

// convertProfiles turns the kept dumps into pprof profiles beside the note
// (expdir.ProfilePath) and removes the raw dumps. It returns what it could
// not convert; a missing profile is reported by the note, never fatal to
// the experiment.
func convertProfiles(expDir string, su *suite.Suite) []error {
	d := expdir.Dir(expDir)
	raw := filepath.Dir(d.RawProfileDir("before"))
	if _, err := os.Stat(raw); err != nil {
		return nil
	}
	var errs []error
	for _, w := range su.Workloads {
		for _, side := range []string{"before", "after"} {
			in := filepath.Join(d.RawProfileDir(side), w.Name+".1.callgrind")
			if _, err := os.Stat(in); err != nil {
				continue // no callgrind measurement, or it failed: the line says so
			}
			if err := callgrind.ConvertFile(in, d.Path(expdir.ProfilePath(w.Name, side))); err != nil {
				errs = append(errs, fmt.Errorf("profile of %s (%s): %w", w.Name, side, err))
			}
		}
	}
	if err := os.RemoveAll(raw); err != nil {
		errs = append(errs, err)
	}
	return errs
}
