package pairs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/measure"
	"workbench/experiments/lab/suite"
	"workbench/perfcount/callgrind"

	"github.com/google/pprof/profile"
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
			in := filepath.Join(d.RawProfileDir(side), expdir.FileName(w.Name)+".1.callgrind")
			if _, err := os.Stat(in); err != nil {
				continue // no callgrind measurement, or it failed: the line says so
			}
			out := d.Path(expdir.ProfilePath(w.Name, side))
			convert := callgrind.ConvertFile
			base := filepath.Join(d.RawProfileDir(side), expdir.FileName(w.Name)+".base.callgrind")
			if _, err := os.Stat(base); err == nil {
				convert = func(in, out string) error { return convertDifference(in, base, out) }
			}
			if err := convert(in, out); err != nil {
				errs = append(errs, fmt.Errorf("profile of %s (%s): %w", w.Name, side, err))
			}
		}
	}
	if err := os.RemoveAll(raw); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// convertDifference writes to out the pprof profile of the callgrind dump
// in less that of base: the instructions by function and call stack that
// in's process ran and base's did not. For a server counted serving N1
// requests (base) and N2 (in), it is the profile of N2 − N1 requests, with
// start-up and preparation cancelled as in the count (measure.countHTTP).
// A function both ran about equally can come out slightly negative: the
// two processes' noise. Its stacks are flat, one frame per sample: a
// whole server's call graph, inferred into stacks, made profiles of 5-9
// MB that took 15 s each to write, where flat ones take 0.2 MB and 0.4 s,
// and the note compares functions' flat counts.
func convertDifference(in, base, out string) error {
	opts := callgrind.DefaultOptions
	opts.Stacks = callgrind.StacksFlat
	var profs [2]*profile.Profile
	for i, path := range []string{in, base} {
		p, err := callgrind.ParseFile(path)
		if err == nil {
			err = p.Check()
		}
		if err == nil {
			profs[i], err = callgrind.Convert(p, opts)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	profs[1].Scale(-1)
	diff, err := profile.Merge(profs[:])
	if err != nil {
		return fmt.Errorf("subtracting %s from %s: %w", base, in, err)
	}
	diff.Comments = append(diff.Comments, "difference of two processes' callgrind counts: "+filepath.Base(in)+" less "+filepath.Base(base))
	var b bytes.Buffer
	if err := diff.Write(&b); err != nil {
		return err
	}
	return expdir.WriteFileAtomic(out, b.Bytes())
}
