package expdir

import (
	"time"

	"workbench/perfcount"
)

// Meta describes an experiment: what was compared, with what suite, under
// which controls. It is written to meta.json once, when the experiment
// starts; a resumed experiment keeps it. Readers take it leniently: fields
// missing from older experiments stay zero.
type Meta struct {
	// Experiment is the experiment's name, e.g. "012-faster-sort".
	Experiment string `json:"experiment"`
	// Before and After are the two builds compared.
	Before Build `json:"before"`
	After  Build `json:"after"`
	// Suite is the suite's name, SuitePath where it was read and SuiteText
	// its content.
	Suite     string `json:"suite"`
	SuitePath string `json:"suite_path"`
	SuiteText string `json:"suite_text"`
	// Pairs is how many pairs were scheduled.
	Pairs int `json:"pairs"`
	// Runs is the number of cells the schedule has: pairs × 2 × workloads.
	// Pairs added later for undecided workloads are in Extensions.
	Runs int `json:"runs"`
	// MaxPairs is how many pairs in all an undecided workload may be given:
	// after the Pairs scheduled, the runner adds two at a time to each
	// workload the judge leaves unknown and that more pairs may decide,
	// up to MaxPairs. Zero (older experiments) or Pairs: none are added.
	MaxPairs int `json:"max_pairs,omitempty"`
	// LooksBudget names the error budget of the judge's sequential rule
	// for added pairs (judge.Looks): LooksNominal, the one-sided error the
	// confidence states whatever MaxPairs is (from 2026-12-07). Empty in
	// older experiments, which were judged with the fixed rule's error at
	// MaxPairs pairs, and are judged so again.
	LooksBudget string `json:"looks_budget,omitempty"`
	// Extensions are the pairs added, in the order they ran.
	Extensions []Extension `json:"extensions,omitempty"`
	// MaxTime is the time budget for adding pairs: no step of added pairs
	// starts when it would end past MaxTime after Start. Zero: none.
	MaxTime time.Duration `json:"max_time_ns,omitempty"`
	// BudgetStop, when set, is the step of added pairs that MaxTime kept
	// from starting; its workloads stay as the judge left them.
	BudgetStop *BudgetStop `json:"budget_stop,omitempty"`
	// Timeout is the limit on one run; zero when none was recorded.
	Timeout time.Duration `json:"timeout_ns"`
	// Controls are what was held identical for both sides.
	Controls Controls `json:"controls"`
	// Criteria says where the experiment's criteria file came from.
	Criteria CriteriaOrigin `json:"criteria"`
	// AA is true for an A/A experiment, whose two sides are the same
	// commit: its runs become that commit's calibration.
	AA bool `json:"aa"`
	// Calibration says where the experiment's calibration.jsonl came from;
	// nil when it has none.
	Calibration *CalibrationOrigin `json:"calibration,omitempty"`
	// Changes is what the after side changes against the before side,
	// recorded when the experiment started; nil in experiments from
	// before it was recorded.
	Changes *Changes `json:"changes,omitempty"`
	// GoBench describes an experiment on another module's Go benchmarks;
	// nil for the project's own suites.
	GoBench *GoBenchMeta `json:"gobench,omitempty"`
	// Harness is the checkout the harness ran from.
	Harness Harness           `json:"harness"`
	Machine perfcount.Machine `json:"machine"`
	// Start is when the experiment started.
	Start time.Time `json:"start"`
}

// LooksNominal is Meta.LooksBudget for the judge's sequential rule spending
// the nominal one-sided error, (1 - confidence)/2, whatever the bound.
const LooksNominal = "nominal"

// An Extension is one step of adding pairs to undecided workloads: after
// the judge saw AfterPairs pairs, the pairs numbered Pairs ran for the
// Workloads it left unknown, each with the judge's reason. A workload in
// Backends ran only the measurements of those backends (the ones whose
// metrics were still unknown); the others ran all of theirs.
type Extension struct {
	AfterPairs int                 `json:"after_pairs"`
	Pairs      []int               `json:"pairs"`
	Workloads  []string            `json:"workloads"`
	Reasons    map[string]string   `json:"reasons"`
	Backends   map[string][]string `json:"backends,omitempty"`
}

// A BudgetStop is the step of added pairs the time budget kept from
// starting: after AfterPairs pairs, at Elapsed since the experiment's start,
// the Workloads the judge left unknown would have needed about Estimate
// more (their pairs' durations so far), which would have passed MaxTime.
type BudgetStop struct {
	AfterPairs int           `json:"after_pairs"`
	Workloads  []string      `json:"workloads"`
	Elapsed    time.Duration `json:"elapsed_ns"`
	Estimate   time.Duration `json:"estimate_ns"`
}

// A Build is one side of the comparison: one revision's built subject
// binaries.
type Build struct {
	// Side is "before" or "after".
	Side string `json:"side"`
	// Revision is the revision as the user named it (e.g. HEAD~1); Commit
	// the full hash it resolved to.
	Revision string `json:"revision"`
	Commit   string `json:"commit"`
	// Dir holds the binaries, one per tool, named as the tool.
	Dir string `json:"dir"`
	// GoVersion is the toolchain that built them.
	GoVersion string `json:"go_version"`
	// Cached is true when the binaries came from the build cache; it is
	// not recorded.
	Cached bool `json:"-"`
}

// Controls are what is held identical for both sides of every pair, as
// recorded in meta.json; the two that can change between sessions of a
// resumed experiment (ASLR, CPU) are also recorded in each run's line
// (RunControls).
type Controls struct {
	// RunDir is the subject's working directory, the same for both sides.
	// RunDir/bin is a symlink swapped to the side's build directory before
	// each run, so both sides' programs are invoked through the same path
	// and receive byte-identical argv.
	RunDir string `json:"run_dir"`
	// Env is the subject's whole environment, the same for both sides;
	// EnvBytes is its size as execve counts it (each string plus its NUL).
	Env      []string `json:"env"`
	EnvBytes int      `json:"env_bytes"`
	// ASLROff is true when subjects run under setarch -R, which disables
	// address-space randomisation for them; Setarch is the prefix used.
	ASLROff bool     `json:"aslr_off"`
	Setarch []string `json:"setarch,omitempty"`
	// RandomizeVASpace is /proc/sys/kernel/randomize_va_space (-1 if
	// unreadable): the system's setting, which setarch -R overrides. It is
	// nil in experiments that did not record it.
	RandomizeVASpace *int `json:"randomize_va_space"`
	// CPU is the taskset -c list the subject is pinned to; empty when not
	// pinned.
	CPU     string   `json:"cpu,omitempty"`
	Taskset []string `json:"taskset,omitempty"`
	// Alternation is how the two sides' native (perf) measurements take
	// turns: AlternateRegions or AlternateProcesses. Empty in experiments
	// from before it was recorded.
	Alternation string `json:"alternation,omitempty"`
	// PrepareOnce is false when a side's pure-count predates --rerun: the
	// suite's prepare=once workloads are then prepared afresh for every
	// region, on both sides alike.
	PrepareOnce bool `json:"prepare_once"`
	// HTTP are the controls of the measurements of servers under load;
	// nil when the suite has none.
	HTTP *HTTPControls `json:"http,omitempty"`
	// Notes say why a control is not in force, when it is not.
	Notes []string `json:"notes,omitempty"`
}

// HTTPControls say how servers under load were measured: the servers run
// on the subjects' CPU (Controls.CPU); the load generator, pure-load, is
// the harness's, built from its checkout, not from the revisions.
type HTTPControls struct {
	// Load is the pure-load binary; LoadCPU the taskset -c list it is
	// pinned to (empty: not pinned), with the prefix LoadTaskset.
	Load        string   `json:"load"`
	LoadCPU     string   `json:"load_cpu,omitempty"`
	LoadTaskset []string `json:"load_taskset,omitempty"`
	// Alternation is AlternateWindows.
	Alternation string `json:"alternation"`
}

// Alternation values (Controls.Alternation).
const (
	// AlternateRegions: the two sides' processes run side by side and
	// their regions alternate one by one (pure-count run --gate).
	AlternateRegions = "regions"
	// AlternateProcesses: whole processes alternate, because a side's
	// pure-count predates --gate.
	AlternateProcesses = "processes"
	// AlternateWindows: both sides' servers run side by side and are
	// loaded in turn, one window at a time, A B B A (HTTPControls).
	AlternateWindows = "windows"
)

// RunControls are the controls recorded with each run.
type RunControls struct {
	ASLROff bool   `json:"aslr_off"`
	CPU     string `json:"cpu,omitempty"`
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

// CalibrationOrigin says where an experiment's calibration.jsonl came from.
type CalibrationOrigin struct {
	// Path is the calibration file it was copied from.
	Path string `json:"path"`
	// Commit and Suite are the commit and suite the calibration measured.
	Commit string `json:"commit"`
	Suite  string `json:"suite"`
	// Experiment is the A/A experiment that recorded the runs, as its runs
	// name it.
	Experiment string `json:"experiment,omitempty"`
	// Runs is the number of runs copied.
	Runs int `json:"runs"`
}

// Changes is what an experiment's after commit changes against its before
// commit.
type Changes struct {
	// Commits are the commits after before up to after on after's
	// first-parent path, oldest first; none for an A/A experiment.
	Commits []Commit `json:"commits"`
	// Diffstat is `git diff --shortstat` of the files outside the
	// experiments' data (experiments/NNN-slug, experiments/probes, the
	// index): "" when the change touches no code.
	Diffstat string `json:"diffstat"`
}

// A Commit is one commit of a change: its abbreviated hash and subject.
type Commit struct {
	Hash    string `json:"hash"`
	Subject string `json:"subject"`
}
