package note

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Meta is what the note needs of an experiment's meta.json, which `just
// pairs` writes when the experiment starts. It is read leniently: fields
// the note does not use are ignored, and missing fields stay zero and are
// shown as unknown.
type Meta struct {
	// Experiment is the experiment's name, e.g. "012-faster-sort".
	Experiment string `json:"experiment"`
	// Before and After are the two builds compared.
	Before Build `json:"before"`
	After  Build `json:"after"`
	// Suite names the suite of workloads; Pairs is how many pairs were
	// scheduled.
	Suite string `json:"suite"`
	Pairs int    `json:"pairs"`
	// Timeout is the limit on one run; zero when none was recorded.
	Timeout time.Duration `json:"timeout_ns"`
	// Controls are what was held identical for both sides.
	Controls Controls `json:"controls"`
	// Criteria says where the experiment's criteria file came from.
	Criteria CriteriaOrigin `json:"criteria"`
	// Harness is the checkout the harness ran from.
	Harness Harness `json:"harness"`
	// Start is when the experiment started.
	Start time.Time `json:"start"`
}

// Build is one side of the comparison as meta.json records it.
type Build struct {
	// Revision is the revision as the user named it (e.g. HEAD~1); Commit
	// the full hash it resolved to.
	Revision string `json:"revision"`
	Commit   string `json:"commit"`
	// GoVersion is the toolchain that built the side's binaries.
	GoVersion string `json:"go_version"`
}

// Controls are the measures that held both sides of every pair alike.
type Controls struct {
	// RunDir is the subjects' working directory.
	RunDir string `json:"run_dir"`
	// Env is the subjects' environment, EnvBytes its size as execve
	// counts it.
	Env      []string `json:"env"`
	EnvBytes int      `json:"env_bytes"`
	// ASLROff is true when subjects ran under Setarch (setarch -R).
	ASLROff bool     `json:"aslr_off"`
	Setarch []string `json:"setarch"`
	// RandomizeVASpace is the system's randomize_va_space setting, -1 if
	// it was unreadable and nil if it was not recorded.
	RandomizeVASpace *int `json:"randomize_va_space"`
	// CPU is the taskset -c list the subjects were pinned to, with the
	// Taskset prefix; empty when not pinned.
	CPU     string   `json:"cpu"`
	Taskset []string `json:"taskset"`
	// Alternation is how the two sides' native measurements took turns:
	// "regions" (one by one, pure-count run --gate) or "processes"; empty
	// when not recorded.
	Alternation string `json:"alternation"`
	// Notes say why a control was not in force.
	Notes []string `json:"notes"`
}

// CriteriaOrigin says where the criteria file came from.
type CriteriaOrigin struct {
	// Source is "committed" (the file committed at the before revision),
	// "file" (already in the experiment directory, not committed) or
	// "default".
	Source string `json:"source"`
	// Commit and Path locate the committed file.
	Commit string `json:"commit"`
	Path   string `json:"path"`
}

// Harness is the checkout the harness ran from.
type Harness struct {
	// Commit is the checkout's HEAD; Dirty is true when it had uncommitted
	// changes.
	Commit string `json:"commit"`
	Dirty  bool   `json:"dirty"`
}

// readMeta reads dir/meta.json. A missing file is an error that says how an
// experiment directory is made.
func readMeta(dir string) (Meta, error) {
	path := filepath.Join(dir, MetaFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Meta{}, fmt.Errorf("%s not found: %s is not an experiment directory; run `just pairs before=<rev> after=<rev>` to make one: %w", path, dir, ErrNotExperiment)
	}
	if err != nil {
		return Meta{}, err
	}
	var m Meta
	if err := json.Unmarshal(b, &m); err != nil {
		return Meta{}, fmt.Errorf("%s: %w (is it the meta.json that `just pairs` wrote?)", path, err)
	}
	return m, nil
}
