package pairs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"workbench/experiments/lab/build"
	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/suite"
)

// DefaultCriteria is the criteria text written when the experiment has none
// committed at the before revision. Its format belongs to package judge;
// this package only stores the text.
const DefaultCriteria = "time.max_worse = 3%\ninstructions.max_higher = 1%\n"

// defaultCriteria returns the criteria text written for an experiment of
// su that has none committed: DefaultCriteria's lines, less those the suite
// sets itself, then the suite's own criteria lines, under a comment naming
// the suite. So a suite may raise a default (suite http judges time at
// 5 %) without the file setting it twice.
func defaultCriteria(su *suite.Suite) string {
	if len(su.Criteria) == 0 {
		return DefaultCriteria
	}
	set := make(map[string]bool, len(su.Criteria))
	for _, c := range su.Criteria {
		set[criteriaKey(c)] = true
	}
	var b strings.Builder
	for line := range strings.Lines(DefaultCriteria) {
		if !set[criteriaKey(line)] {
			b.WriteString(line)
		}
	}
	fmt.Fprintf(&b, "# from suite %s:\n", su.Name)
	for _, c := range su.Criteria {
		b.WriteString(c + "\n")
	}
	return b.String()
}

// criteriaKey is the setting's name in a criteria line "name = value".
func criteriaKey(line string) string {
	name, _, _ := strings.Cut(line, "=")
	return strings.TrimSpace(name)
}

var (
	expNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	numberRE  = regexp.MustCompile(`^([0-9]{3,})-`)
)

// checkExperimentName rejects names that are not a single plain directory name.
func checkExperimentName(name string) error {
	if !expNameRE.MatchString(name) {
		return fmt.Errorf("experiment name %q: want one directory name such as 012-faster-sort (letters, digits, '.', '_', '-')", name)
	}
	return nil
}

// NextExperiment returns the name of a new experiment directory in dir:
// NNN-pairs-<before>-<after>, where NNN is one more than the highest number
// in use and the commits are abbreviated.
func NextExperiment(dir, before, after string) (string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	high := 0
	for _, e := range ents {
		if m := numberRE.FindStringSubmatch(e.Name()); m != nil && e.IsDir() {
			if n, err := strconv.Atoi(m[1]); err == nil && n > high {
				high = n
			}
		}
	}
	return fmt.Sprintf("%03d-pairs-%s-%s", high+1, build.Short(before), build.Short(after)), nil
}

// latestExperiment returns the highest-numbered NNN-<suffix> directory in
// dir, or "" if there is none: what resume continues when no experiment is
// named. suffix is what follows the number in a new experiment's name
// (experimentSuffix).
func latestExperiment(dir, suffix string) string {
	ents, _ := os.ReadDir(dir)
	re := regexp.MustCompile(`^([0-9]{3,})-` + regexp.QuoteMeta(suffix) + `$`)
	best, high := "", -1
	for _, e := range ents {
		if m := re.FindStringSubmatch(e.Name()); m != nil && e.IsDir() {
			if n, _ := strconv.Atoi(m[1]); n > high {
				best, high = e.Name(), n
			}
		}
	}
	return best
}

// experimentSuffix is the name a new experiment of these two commits gets
// after its number: pairs-<before>-<after>, or for two versions of a module
// gomod-<module>-<before>-<after> (moduleExperiment).
func experimentSuffix(commits [2]string, module bool) string {
	name := fmt.Sprintf("000-pairs-%s-%s", build.Short(commits[0]), build.Short(commits[1]))
	if module {
		name = moduleExperiment(name, commits)
	}
	return strings.TrimPrefix(name, "000-")
}

// setupCriteria puts the experiment's criteria file in place and says where
// it came from. The file as committed at the before commit wins: criteria
// are written before the change they judge. Failing that, a criteria file
// already in the directory is kept; failing that, text (defaultCriteria) is
// written.
// warn receives a message when a committed file replaces a different one.
func setupCriteria(ctx context.Context, repo, expDir, before, text string, warn func(string)) (expdir.CriteriaOrigin, error) {
	path := filepath.Join(expDir, expdir.CriteriaFile)
	old, oldErr := os.ReadFile(path)
	if rel, err := filepath.Rel(repo, path); err == nil && filepath.IsLocal(rel) {
		rel = filepath.ToSlash(rel)
		if b, err := build.GitBytes(ctx, repo, "show", before+":"+rel); err == nil {
			text := string(b)
			if oldErr == nil && string(old) != text {
				warn(fmt.Sprintf("%s differs from the criteria committed at %s: using the committed one", path, build.Short(before)))
			}
			if oldErr != nil || string(old) != text {
				if err := expdir.WriteFileAtomic(path, []byte(text)); err != nil {
					return expdir.CriteriaOrigin{}, err
				}
			}
			return expdir.CriteriaOrigin{Source: "committed", Commit: before, Path: rel}, nil
		}
	}
	if oldErr == nil {
		return expdir.CriteriaOrigin{Source: "file"}, nil
	}
	if err := expdir.WriteFileAtomic(path, []byte(text)); err != nil {
		return expdir.CriteriaOrigin{}, err
	}
	return expdir.CriteriaOrigin{Source: "default"}, nil
}

// harnessInfo describes the checkout at repo.
func harnessInfo(ctx context.Context, repo string) expdir.Harness {
	h := expdir.Harness{Repo: repo}
	h.Commit, _ = build.Git(ctx, repo, "rev-parse", "--verify", "--quiet", "HEAD")
	if st, err := build.Git(ctx, repo, "status", "--porcelain", "--untracked-files=no"); err == nil && st != "" {
		h.Dirty = true
	}
	return h
}

// dataPathspecs exclude the experiments' data from a diff: the numbered
// experiment directories, the probes and the index. The lab's code
// (experiments/lab) and the suites are code: they change what is measured
// or how.
var dataPathspecs = []string{":(exclude,glob)experiments/[0-9]*/**", ":(exclude)experiments/probes", ":(exclude)experiments/README.md"}

// changesBetween returns the commits from before to after and the diffstat
// of the files outside the experiments' data; nil when git cannot say.
func changesBetween(ctx context.Context, repo, before, after string) *expdir.Changes {
	c := &expdir.Changes{Commits: []expdir.Commit{}}
	if before == after {
		return c
	}
	log, err := build.Git(ctx, repo, "log", "--first-parent", "--reverse", "--format=%h%x09%s", before+".."+after)
	if err != nil {
		return nil
	}
	for _, l := range strings.Split(log, "\n") {
		if h, subj, ok := strings.Cut(l, "\t"); ok {
			c.Commits = append(c.Commits, expdir.Commit{Hash: h, Subject: subj})
		}
	}
	if c.Diffstat, err = build.Git(ctx, repo, append([]string{"diff", "--shortstat", before, after, "--", "."}, dataPathspecs...)...); err != nil {
		return nil
	}
	c.Diffstat = strings.TrimSpace(c.Diffstat)
	return c
}
