package measure

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/httpbench"
)

// Controls are what is held identical for both sides of every pair, and how.
// They are recorded in the experiment's meta.json; the two that can change
// between sessions of a resumed experiment (ASLR, CPU) are also recorded in
// each run's line.
type Controls struct {
	// Controls are the recorded controls (see expdir.Controls).
	expdir.Controls

	copy   string   // the fresh copy RunDir/bin points at (see Use)
	copies []string // fresh copies made and not yet removed (see tidy)
}

// ControlOptions choose the controls.
type ControlOptions struct {
	// CPU is the taskset -c list to pin subjects to. Empty picks the last
	// CPU (CPU 1 on a 2-core machine), leaving CPU 0 to the harness and the
	// system, and runs unpinned, with a note, if taskset cannot pin there;
	// "none" disables pinning; any other value must work or DetectControls
	// fails.
	CPU string
	// KeepASLR leaves address-space randomisation on.
	KeepASLR bool
	// ExtraEnv are KEY=VALUE strings added to the subject's environment
	// (for both sides alike).
	ExtraEnv []string
}

// DetectControls checks once which controls this machine supports and
// returns them, with runDir as the subjects' working directory.
func DetectControls(ctx context.Context, runDir string, o ControlOptions) (Controls, error) {
	va := -1
	if b, err := os.ReadFile("/proc/sys/kernel/randomize_va_space"); err == nil {
		if v, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			va = v
		}
	}
	c := Controls{Controls: expdir.Controls{RunDir: runDir, RandomizeVASpace: &va}}

	// ASLR: setarch $(uname -m) -R, if it works here.
	if o.KeepASLR {
		c.Notes = append(c.Notes, "ASLR left on: asked for")
	} else if path, err := exec.LookPath("setarch"); err != nil {
		c.Notes = append(c.Notes, "ASLR left on: setarch not found (install util-linux)")
	} else {
		prefix := []string{path, machineArch(), "-R"}
		if out, err := exec.CommandContext(ctx, path, prefix[1], "-R", "true").CombinedOutput(); err != nil {
			c.Notes = append(c.Notes, fmt.Sprintf("ASLR left on: %s failed: %v %s", strings.Join(prefix, " "), err, bytes.TrimSpace(out)))
		} else {
			c.ASLROff, c.Setarch = true, prefix
		}
	}

	// CPU pinning with taskset -c.
	cpu, explicit := o.CPU, o.CPU != ""
	if cpu == "" {
		cpu = strconv.Itoa(runtime.NumCPU() - 1)
	}
	if cpu != "none" {
		path, err := exec.LookPath("taskset")
		if err == nil {
			var out []byte
			out, err = exec.CommandContext(ctx, path, "-c", cpu, "true").CombinedOutput()
			if err != nil {
				err = fmt.Errorf("taskset -c %s: %v %s", cpu, err, bytes.TrimSpace(out))
			}
		}
		switch {
		case err == nil:
			c.CPU, c.Taskset = cpu, []string{path, "-c", cpu}
		case explicit:
			return c, fmt.Errorf("cannot pin subjects to CPU %s: %w (choose another CPU, or none)", cpu, err)
		default:
			c.Notes = append(c.Notes, fmt.Sprintf("not pinned to a CPU: %v", err))
		}
	}

	// Environment: a fixed, small set, identical for both sides.
	env := map[string]string{"LC_ALL": "C", "TZ": "UTC"}
	for _, k := range []string{"PATH", "HOME", "USER", "TMPDIR"} {
		if v, ok := os.LookupEnv(k); ok {
			env[k] = v
		}
	}
	for _, kv := range o.ExtraEnv {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return c, fmt.Errorf("environment entry %q: want KEY=VALUE", kv)
		}
		env[k] = v
	}
	for k, v := range env {
		c.Env = append(c.Env, k+"="+v)
		c.EnvBytes += len(k) + 1 + len(v) + 1
	}
	slices.Sort(c.Env)
	return c, nil
}

// Prefix is the argv that runs a program under the controls: taskset and
// setarch, each of which sets its property and execs the next.
func (c *Controls) Prefix() []string {
	return append(append([]string(nil), c.Taskset...), c.Setarch...)
}

// Program returns the path through which tool is invoked, for both sides.
func (c *Controls) Program(tool string) string { return filepath.Join(c.RunDir, "bin", tool) }

// Use points RunDir/bin at a fresh copy of a side's build directory and
// removes the copies made before it (a process started from one keeps its
// file until it exits).
//
// A fresh copy per process, because where a binary's pages sit in the page
// cache can make the same bytes run several percent faster from one file than
// from another (experiments/probes/900-probe-a and -b: 6 % on itoa-fmt-10k between
// byte-identical builds of two commits, following the file). Copying for
// every process makes that placement vary from process to process on both
// sides alike, instead of favouring one side for a whole experiment.
func (c *Controls) Use(b expdir.Build) error {
	dir, err := c.copyBuild(b)
	if err != nil {
		return err
	}
	if err := c.point(dir); err != nil {
		return err
	}
	c.tidy()
	return nil
}

// UseTool is Use for one program of the build: only tool is copied, for
// builds of many programs of which a process runs one (a Go module's test
// binaries, one per package).
func (c *Controls) UseTool(b expdir.Build, tool string) error {
	dir, err := freshCopy(b.Dir, c.RunDir, tool)
	if err != nil {
		return fmt.Errorf("copying %s of %s for a run: %w", tool, b.Dir, err)
	}
	c.copies = append(c.copies, dir)
	if err := c.point(dir); err != nil {
		return err
	}
	c.tidy()
	return nil
}

// copyBuild makes a fresh copy of a side's build directory under RunDir,
// kept until tidy removes it.
func (c *Controls) copyBuild(b expdir.Build) (string, error) {
	dir, err := freshCopy(b.Dir, c.RunDir)
	if err != nil {
		return "", fmt.Errorf("copying %s for a run: %w", b.Dir, err)
	}
	c.copies = append(c.copies, dir)
	return dir, nil
}

// point replaces the symlink RunDir/bin atomically with one to dir.
func (c *Controls) point(dir string) error {
	link := filepath.Join(c.RunDir, "bin")
	tmp := link + ".new"
	os.Remove(tmp)
	if err := os.Symlink(dir, tmp); err != nil {
		return fmt.Errorf("pointing %s at %s: %w", link, dir, err)
	}
	if err := os.Rename(tmp, link); err != nil {
		return fmt.Errorf("pointing %s at %s: %w", link, dir, err)
	}
	c.copy = dir
	return nil
}

// tidy removes every fresh copy but the one RunDir/bin points at.
func (c *Controls) tidy() {
	keep := c.copies[:0]
	for _, d := range c.copies {
		if d == c.copy {
			keep = append(keep, d)
			continue
		}
		os.RemoveAll(d)
	}
	c.copies = keep
}

// freshCopy copies the regular files of dir (only those named in only,
// when it names any) into a new directory under parent and returns it.
func freshCopy(dir, parent string, only ...string) (string, error) {
	out, err := os.MkdirTemp(parent, "bin-copy-")
	if err != nil {
		return "", err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		os.RemoveAll(out)
		return "", err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || len(only) > 0 && !slices.Contains(only, e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err == nil {
			var info os.FileInfo
			if info, err = e.Info(); err == nil {
				err = os.WriteFile(filepath.Join(out, e.Name()), b, info.Mode().Perm())
			}
		}
		if err != nil {
			os.RemoveAll(out)
			return "", err
		}
	}
	return out, nil
}

// loader runs the harness's pure-load under the HTTP controls, with the
// subjects' environment.
func (c *Controls) loader() httpbench.Loader {
	return httpbench.Loader{Path: c.HTTP.Load, CPU: c.HTTP.LoadCPU, Env: c.Env}
}

// SetHTTP sets the controls of measurements of servers under load: the
// harness's pure-load binary at load, pinned with taskset to the first CPU
// that is not the subjects' (CPU 0 on a 2-core machine, where the servers
// run on CPU 1). It returns a note when pure-load cannot be pinned apart
// from the servers, "" otherwise.
func (c *Controls) SetHTTP(ctx context.Context, load string) string {
	c.HTTP = &expdir.HTTPControls{Load: load, Alternation: expdir.AlternateWindows}
	if c.CPU == "" {
		return "pure-load not pinned: the subjects are not pinned either, so the load generator and the servers share the CPUs"
	}
	subject := cpuSet(c.CPU)
	for cpu := range runtime.NumCPU() {
		if subject[cpu] {
			continue
		}
		s := strconv.Itoa(cpu)
		path, err := exec.LookPath("taskset")
		if err == nil {
			err = exec.CommandContext(ctx, path, "-c", s, "true").Run()
		}
		if err != nil {
			return fmt.Sprintf("pure-load not pinned: taskset -c %s failed: %v", s, err)
		}
		c.HTTP.LoadCPU, c.HTTP.LoadTaskset = s, []string{path, "-c", s}
		return ""
	}
	return fmt.Sprintf("pure-load not pinned: no CPU is left beside the subjects' CPU %s, so the load generator competes with the servers", c.CPU)
}

// cpuSet parses a taskset -c list such as "1", "0,2" or "0-3" into the set
// of CPUs it names; parts it cannot read are left out.
func cpuSet(list string) map[int]bool {
	set := map[int]bool{}
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			continue
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				continue
			}
		}
		for cpu := a; cpu <= b; cpu++ {
			set[cpu] = true
		}
	}
	return set
}

// run returns the per-run record of the controls.
func (c *Controls) run() *expdir.RunControls {
	return &expdir.RunControls{ASLROff: c.ASLROff, CPU: c.CPU}
}

// RunDirFor returns the run directory of an experiment directory:
// cacheDir/run/<16 hex digits of a hash of its absolute path>. It has the same
// length for every experiment, and the same path in every session of one
// experiment.
func RunDirFor(cacheDir, expDir string) string {
	abs, err := filepath.Abs(expDir)
	if err != nil {
		abs = expDir
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(cacheDir, "run", hex.EncodeToString(sum[:8]))
}

// machineArch returns the machine name as uname -m prints it.
func machineArch() string {
	var u syscall.Utsname
	if err := syscall.Uname(&u); err != nil {
		return runtime.GOARCH
	}
	var b []byte
	for _, c := range u.Machine {
		if c == 0 {
			break
		}
		b = append(b, byte(c))
	}
	return string(b)
}
