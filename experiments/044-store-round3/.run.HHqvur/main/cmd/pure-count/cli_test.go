package main

import (
	"encoding/json"
	"errors"
	"flag"
	"os/exec"
	"strings"
	"testing"
)

// --help lists every flag of stat and run, run's timing flags included,
// and -h on a subcommand exits 0 with that subcommand's flags.
func TestHelp_ListsEveryFlag(t *testing.T) {
	out, _, err := runCLI(t, "--help")
	if err != nil {
		t.Fatal(err)
	}
	var c common
	fs, _ := newRunFlags(&c)
	stat := newFlagSet("stat")
	new(common).register(stat)
	for _, set := range []*flag.FlagSet{fs, stat} {
		set.VisitAll(func(f *flag.Flag) {
			if !strings.Contains(out, "\n  -"+f.Name) {
				t.Errorf("pure-count --help does not list -%s", f.Name)
			}
		})
	}
	for _, name := range []string{"regions", "rerun", "gate", "dump-dir"} {
		if !strings.Contains(out, "\n  -"+name) {
			t.Errorf("pure-count --help does not list run's --%s", name)
		}
	}
	for _, sub := range []string{"run", "stat"} {
		out, errOut, err := runCLI(t, sub, "-h")
		if err != nil || !strings.Contains(out, "usage: pure-count "+sub) || !strings.Contains(out, "\n  -backend") || errOut != "" {
			t.Errorf("%s -h: %v, stdout %q, stderr %q", sub, err, out, errOut)
		}
	}
}

// An unknown flag is reported once, as a usage error naming where the
// flags are listed.
func TestUnknownFlag_ReportedOnce(t *testing.T) {
	for _, sub := range []string{"run", "stat"} {
		_, errOut, err := runCLI(t, sub, "--bogus", "x")
		if exitCode(err) != 2 {
			t.Errorf("%s --bogus: exit %d (%v), want 2", sub, exitCode(err), err)
		}
		if n := strings.Count(errOut+err.Error(), "bogus"); n != 1 {
			t.Errorf("%s --bogus reported %d times: stderr %q, error %q", sub, n, errOut, err)
		}
		if !strings.Contains(err.Error(), "pure-count "+sub+" -h") {
			t.Errorf("%s --bogus: %q does not say where the flags are listed", sub, err)
		}
	}
}

// stat exits with the counted command's status, as perf stat does.
func TestStat_ExitsWithChildStatus(t *testing.T) {
	_, _, err := runCLI(t, "stat", "-e", "task-clock", "--", "sh", "-c", "exit 7")
	var st exitStatus
	if !errors.As(err, &st) || exitCode(err) != 7 {
		t.Fatalf("stat of a command exiting 7: %v, exit code %d", err, exitCode(err))
	}
}

func needValgrind(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("valgrind"); err != nil {
		t.Skip("valgrind is not installed (.ci/run installs it): the callgrind backend cannot run")
	}
}

// Under callgrind, stat prints no wall time, CPU time or RSS: they would be
// valgrind's, not the command's.
func TestStat_CallgrindShowsNoValgrindTimes(t *testing.T) {
	needValgrind(t)
	out, _, err := runCLI(t, "stat", "--backend", "callgrind", "--", "true")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "seconds wall") || strings.Contains(out, "max RSS") || !strings.Contains(out, "valgrind's") {
		t.Errorf("callgrind stat output:\n%s", out)
	}
	out, _, err = runCLI(t, "stat", "--backend", "callgrind", "--json", "--", "true")
	if err != nil {
		t.Fatal(err)
	}
	var l map[string]any
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &l); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"wall_ns", "user_ns", "system_ns", "max_rss_bytes"} {
		if _, ok := l[k]; ok {
			t.Errorf("callgrind stat --json has %s: %s", k, out)
		}
	}
}

// events marks, on every line, what can count the event on this machine.
func TestEvents_MarksWhatThisMachineCounts(t *testing.T) {
	out, _, err := runCLI(t, "events")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 10 {
		t.Fatalf("%d events listed", len(lines))
	}
	for _, l := range lines {
		if !strings.HasSuffix(l, "[not countable here]") && !strings.Contains(l, "[countable here: ") {
			t.Errorf("line %q has no mark", l)
		}
		if strings.HasPrefix(l, "task-clock ") && !strings.Contains(l, "perf") {
			t.Errorf("task-clock, a software event, is not marked countable by perf: %q", l)
		}
	}
}

// No error's advice leads back to the same error: an event perf cannot
// count here is not sent to callgrind unless it is instructions, and
// callgrind sends -e back to perf only where perf counts it.
func TestAdvice_LeadsNowhereCircular(t *testing.T) {
	needValgrind(t)
	_, _, cgErr := runCLI(t, "stat", "--backend", "callgrind", "-e", "cycles", "--", "true")
	_, _, perfErr := runCLI(t, "stat", "-e", "cycles", "--", "true")
	if cgErr == nil {
		t.Fatal("callgrind counted cycles")
	}
	if perfErr != nil && strings.Contains(cgErr.Error(), "--backend perf") {
		t.Errorf("callgrind's advice %q leads to perf, which fails: %q", cgErr, perfErr)
	}
	if perfErr != nil && strings.Contains(perfErr.Error(), "use --backend callgrind") {
		t.Errorf("perf's advice %q leads to callgrind, which fails: %q", perfErr, cgErr)
	}
}

// `just stat` with its defaults works with both backends: scripts/kv picks
// events the backend counts.
func TestJustStat_DefaultsWorkWithBothBackends(t *testing.T) {
	needValgrind(t)
	for _, backend := range []string{"perf", "callgrind"} {
		cmd := exec.Command("../../scripts/kv", "pure-count-stat", "backend="+backend)
		cmd.Env = append(cmd.Environ(), "KV_PRINT=1")
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("scripts/kv: %v", err)
		}
		args := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(args) < 4 || args[2] != "./cmd/pure-count" {
			t.Fatalf("scripts/kv runs %q", args)
		}
		if _, _, err := runCLI(t, args[3:]...); err != nil {
			t.Errorf("just stat backend=%s runs %q: %v", backend, args, err)
		}
	}
}
