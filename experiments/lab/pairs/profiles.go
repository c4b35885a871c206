package pairs

import (
	"fmt"
	"os"
	"path/filepath"

	"workbench/perfcount/callgrind"
)

// ProfilesDir is the directory of an experiment that holds the pprof
// profiles of both sides: profiles/WORKLOAD.before.pb.gz and
// profiles/WORKLOAD.after.pb.gz, from the callgrind dumps of pair 1.
const ProfilesDir = "profiles"

// profileDumpDir is where the callgrind measurements of a cell keep their
// dumps: only pair 1 keeps them. The two sides' directories have names of
// the same length, so both sides' argv stay the same size.
func profileDumpDir(expDir string, c Cell) string {
	if c.Pair != 1 {
		return ""
	}
	side := "b"
	if c.Side == After {
		side = "a"
	}
	return filepath.Join(expDir, ProfilesDir, "raw", side)
}

// convertProfiles turns the kept dumps into pprof profiles beside the note
// and removes the raw dumps. It returns what it could not convert; a missing
// profile is reported by the note, never fatal to the experiment.
func convertProfiles(expDir string, suite *Suite) []error {
	raw := filepath.Join(expDir, ProfilesDir, "raw")
	if _, err := os.Stat(raw); err != nil {
		return nil
	}
	var errs []error
	for _, w := range suite.Workloads {
		for _, side := range []Side{Before, After} {
			in := filepath.Join(profileDumpDir(expDir, Cell{Pair: 1, Side: side}), w.Name+".1.callgrind")
			if _, err := os.Stat(in); err != nil {
				continue // no callgrind measurement, or it failed: the line says so
			}
			out := filepath.Join(expDir, ProfilesDir, fmt.Sprintf("%s.%s.pb.gz", w.Name, side))
			if err := callgrind.ConvertFile(in, out); err != nil {
				errs = append(errs, fmt.Errorf("profile of %s (%s): %w", w.Name, side, err))
			}
		}
	}
	if err := os.RemoveAll(raw); err != nil {
		errs = append(errs, err)
	}
	return errs
}
