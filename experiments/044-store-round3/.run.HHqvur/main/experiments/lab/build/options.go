package build

import (
	"context"
	"errors"
	"flag"
	"path/filepath"
	"strings"
)

// Options are the settings the pairs and bisect commands share: the
// checkout, where the experiments and their suites are, the build cache,
// the suite, and the controls the subjects run under. Both commands define
// them with Flags, so their help cannot drift apart.
type Options struct {
	// Repo is the checkout the harness runs from; its history must hold
	// the revisions. Empty: the checkout containing the working directory.
	Repo string
	// ExperimentsDir holds experiment directories and suites/; empty is
	// Repo/experiments.
	ExperimentsDir string
	// CacheDir holds builds and run directories; empty is
	// DefaultCacheDir().
	CacheDir string
	// Suite is a suite name, looked up in ExperimentsDir/suites, or a path
	// to a .suite file; empty is DefaultSuite.
	Suite string
	// CPU is the taskset -c list to pin subjects to ("none": unpinned;
	// empty: the last CPU); KeepASLR leaves address-space randomisation
	// on; ExtraEnv are KEY=VALUE strings added to the subjects'
	// environment, on both sides alike. See measure.ControlOptions.
	CPU      string
	KeepASLR bool
	ExtraEnv []string
}

// Flags defines the shared flags on fs, writing into o.
func (o *Options) Flags(fs *flag.FlagSet) {
	fs.StringVar(&o.Suite, "suite", DefaultSuite, "suite `name` in EXPERIMENTS/suites/ (apps, micro, http, ...), or a path to a .suite file")
	fs.StringVar(&o.Repo, "checkout", "", "the checkout of this project (`directory`) to run from, whose history holds the revisions of its own suites (default: the one containing the working directory)")
	fs.StringVar(&o.ExperimentsDir, "experiments", "", "experiments `directory`, holding suites/ (default: REPO/experiments)")
	fs.StringVar(&o.CacheDir, "cache", "", "cache `directory` for builds and run directories (default: $XDG_CACHE_HOME/workbench or ~/.cache/workbench)")
	fs.StringVar(&o.CPU, "cpu", "", "taskset -c `list` to pin the subject to, or none (default: the last CPU, CPU 1 on a 2-core machine)")
	fs.BoolVar(&o.KeepASLR, "keep-aslr", false, "leave address-space randomisation on (default: off with setarch -R, where it works)")
	fs.Func("env", "add `KEY=VALUE` to the subject's environment, on both sides (repeatable)", func(s string) error {
		if !strings.Contains(s, "=") {
			return errors.New("want KEY=VALUE")
		}
		o.ExtraEnv = append(o.ExtraEnv, s)
		return nil
	})
}

// Fill fills in the defaults and makes the paths absolute: the run
// directory links into the cache, and criteria are looked up by their path
// relative to the repository.
func (o *Options) Fill(ctx context.Context) error {
	var err error
	if o.Repo == "" {
		if o.Repo, err = RepoRoot(ctx, "."); err != nil {
			return err
		}
	}
	if o.ExperimentsDir == "" {
		o.ExperimentsDir = filepath.Join(o.Repo, "experiments")
	}
	if o.CacheDir == "" {
		if o.CacheDir, err = DefaultCacheDir(); err != nil {
			return err
		}
	}
	for _, p := range []*string{&o.Repo, &o.ExperimentsDir, &o.CacheDir} {
		if *p, err = filepath.Abs(*p); err != nil {
			return err
		}
	}
	if o.Suite == "" {
		o.Suite = DefaultSuite
	}
	return nil
}

// DefaultSuite is the suite a run uses when it names none: the bank
// queries and the TPC-C mix (experiments/suites/apps.suite). The sort,
// itoa and store micro-workloads are suite micro (named default before).
const DefaultSuite = "apps"

// SuitesDir is where suites are looked up by name: ExperimentsDir/suites.
func (o *Options) SuitesDir() string { return filepath.Join(o.ExperimentsDir, "suites") }
