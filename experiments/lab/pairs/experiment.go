package pairs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"workbench/perfcount"
)

// DefaultCriteria is the criteria text written when the experiment has none
// committed at the before revision. Its format belongs to package judge;
// this package only stores the text.
const DefaultCriteria = "time.max_worse = 3%\ninstructions.max_higher = 1%\n"

// Files of an experiment directory written by this package.
const (
	RunsFile     = "runs.jsonl"
	MetaFile     = "meta.json"
	CriteriaFile = "criteria"
)

// Meta describes an experiment: what was compared, with what suite, under
// which controls. It is written to meta.json once, when the experiment
// starts; a resumed experiment keeps it.
type Meta struct {
	Experiment string `json:"experiment"`
	Before     Build  `json:"before"`
	After      Build  `json:"after"`
	// Suite is the suite's name, SuitePath where it was read and SuiteText
	// its content.
	Suite     string `json:"suite"`
	SuitePath string `json:"suite_path"`
	SuiteText string `json:"suite_text"`
	Pairs     int    `json:"pairs"`
	// Runs is the number of cells the schedule has: pairs × 2 × workloads.
	Runs     int            `json:"runs"`
	Timeout  time.Duration  `json:"timeout_ns"`
	Controls Controls       `json:"controls"`
	Criteria CriteriaOrigin `json:"criteria"`
	// AA is true for an A/A experiment, whose two sides are the same
	// commit: its runs become that commit's calibration.
	AA bool `json:"aa"`
	// Calibration says where the experiment's calibration.jsonl came from;
	// nil when it has none.
	Calibration *CalibrationOrigin `json:"calibration,omitempty"`
	Harness     Harness            `json:"harness"`
	Machine     perfcount.Machine  `json:"machine"`
	Start       time.Time          `json:"start"`
}

// CriteriaOrigin says where an experiment's criteria file came from.
type CriteriaOrigin struct {
	// Source is "committed" (from the before commit), "file" (already in
	// the experiment directory but not committed at before) or "default".
	Source string `json:"source"`
	// Commit and Path locate the committed file when Source is "committed".
	Commit string `json:"commit,omitempty"`
	Path   string `json:"path,omitempty"`
}

// Harness identifies the checkout the harness ran from.
type Harness struct {
	Repo string `json:"repo"`
	// Commit is the checkout's HEAD; empty in a repository with no commits.
	Commit string `json:"commit,omitempty"`
	// Dirty is true when the checkout had uncommitted changes.
	Dirty bool `json:"dirty"`
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
	return fmt.Sprintf("%03d-pairs-%s-%s", high+1, short(before), short(after)), nil
}

// latestExperiment returns the highest-numbered NNN-pairs-<before>-<after>
// directory in dir, or "" if there is none: what resume continues when no
// experiment is named.
func latestExperiment(dir, before, after string) string {
	ents, _ := os.ReadDir(dir)
	re := regexp.MustCompile(`^([0-9]{3,})-pairs-` + short(before) + `-` + short(after) + `$`)
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

// readMeta reads an experiment's meta.json; a missing file is (nil, nil).
func readMeta(expDir string) (*Meta, error) {
	b, err := os.ReadFile(filepath.Join(expDir, MetaFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m Meta
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(expDir, MetaFile), err)
	}
	return &m, nil
}

// writeFileAtomic writes data to path through a temporary file and a rename.
func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func writeMeta(expDir string, m *Meta) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(expDir, MetaFile), append(b, '\n'))
}

// setupCriteria puts the experiment's criteria file in place and says where
// it came from. The file as committed at the before commit wins: criteria
// are written before the change they judge. Failing that, a criteria file
// already in the directory is kept; failing that, DefaultCriteria is written.
// warn receives a message when a committed file replaces a different one.
func setupCriteria(ctx context.Context, repo, expDir, before string, warn func(string)) (CriteriaOrigin, error) {
	path := filepath.Join(expDir, CriteriaFile)
	old, oldErr := os.ReadFile(path)
	if rel, err := filepath.Rel(repo, path); err == nil && filepath.IsLocal(rel) {
		rel = filepath.ToSlash(rel)
		if b, err := gitBytes(ctx, repo, "show", before+":"+rel); err == nil {
			text := string(b)
			if oldErr == nil && string(old) != text {
				warn(fmt.Sprintf("%s differs from the criteria committed at %s: using the committed one", path, short(before)))
			}
			if oldErr != nil || string(old) != text {
				if err := writeFileAtomic(path, []byte(text)); err != nil {
					return CriteriaOrigin{}, err
				}
			}
			return CriteriaOrigin{Source: "committed", Commit: before, Path: rel}, nil
		}
	}
	if oldErr == nil {
		return CriteriaOrigin{Source: "file"}, nil
	}
	if err := writeFileAtomic(path, []byte(DefaultCriteria)); err != nil {
		return CriteriaOrigin{}, err
	}
	return CriteriaOrigin{Source: "default"}, nil
}

// harnessInfo describes the checkout at repo.
func harnessInfo(ctx context.Context, repo string) Harness {
	h := Harness{Repo: repo}
	h.Commit, _ = git(ctx, repo, "rev-parse", "--verify", "--quiet", "HEAD")
	if st, err := git(ctx, repo, "status", "--porcelain", "--untracked-files=no"); err == nil && st != "" {
		h.Dirty = true
	}
	return h
}
