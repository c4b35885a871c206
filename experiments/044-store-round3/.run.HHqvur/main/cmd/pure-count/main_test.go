package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"workbench/perfcount"
)

// TestMain lets the test binary stand in for pure-count when `run` starts
// fresh child processes of itself.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == measureCmd || os.Getenv("PURE_COUNT_TEST_AS_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	err = run(context.Background(), args, &o, &e)
	return o.String(), e.String(), err
}

func hasPMU() bool {
	_, err := perfcount.NewRegion(perfcount.BackendPerf, perfcount.MustParseEvents("instructions:u"))
	return err == nil
}

func TestStat_InstructionsWithoutPMU(t *testing.T) {
	if hasPMU() {
		t.Log("this machine has a PMU: checking that instructions are counted instead")
		out, _, err := runCLI(t, "stat", "-e", "instructions:u", "--json", "--", "true")
		if err != nil || !strings.Contains(out, `"source":"perf"`) {
			t.Fatalf("stat instructions with a PMU: %v\n%s", err, out)
		}
		return
	}
	_, _, err := runCLI(t, "stat", "-e", "instructions", "--", "true")
	if err == nil {
		t.Fatal("stat -e instructions succeeded on a machine without a PMU")
	}
	msg := err.Error()
	if !strings.Contains(msg, "no hardware PMU") || !strings.Contains(msg, "--backend callgrind") || strings.Contains(msg, "\n") {
		t.Errorf("error %q: want one line naming the missing PMU and --backend callgrind", msg)
	}
}

func TestStat_SoftwareEventsJSON(t *testing.T) {
	out, _, err := runCLI(t, "stat", "-e", "task-clock,page-faults", "--json", "--", "true")
	if err != nil {
		t.Fatal(err)
	}
	lines := jsonLines(t, out)
	if len(lines) != 2 {
		t.Fatalf("got %d JSON lines, want 2:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if l["source"] != "perf" || l["value"].(float64) <= 0 || l["command"] != "true" || l["multiplexed"] != false {
			t.Errorf("line %v: want a positive value from source perf", l)
		}
		if m, ok := l["machine"].(map[string]any); !ok || m["kernel"] == "" || m["goarch"] == "" {
			t.Errorf("line %v lacks machine facts", l)
		}
	}
}

func TestStat_RepeatSummaryAndExitStatus(t *testing.T) {
	out, _, err := runCLI(t, "stat", "-e", "page-faults", "-r", "3", "--json", "--", "true")
	if err != nil {
		t.Fatal(err)
	}
	lines := jsonLines(t, out)
	last := lines[len(lines)-1]
	if len(lines) != 4 || last["kind"] != "summary" || last["n"].(float64) != 3 || last["min"].(float64) > last["max"].(float64) {
		t.Errorf("want 3 runs and a summary, got:\n%s", out)
	}
	if _, _, err := runCLI(t, "stat", "-e", "task-clock", "--", "sh", "-c", "exit 4"); err == nil || !strings.Contains(err.Error(), "status 4") {
		t.Errorf("a failing command: err = %v, want its exit status", err)
	}
}

func TestRun_UsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"run"},
		{"run", "no-such-workload"},
		{"run", "--backend", "quantum", "sort-ints-10k"},
		{"run", "--backend", "callgrind", "-e", "cycles", "sort-ints-10k"},
		{"run", "-r", "0", "sort-ints-10k"},
		{"run", "--regions", "0", "sort-ints-10k"},
		{"run", "--backend", "callgrind", "--regions", "3", "sort-ints-10k"},
		{"run", "--rerun", "--regions", "3", "sort-ints-10k"}, // sorts in place: cannot rerun
		{"run", "--backend", "callgrind", "--rerun", "store-get"},
		{"run", "--gate", "-r", "2", "store-get"},
		{"run", "--gate", "store-get", "store-put"},
		{"stat"},
		{"stat", "-e", "instrucshuns", "--", "true"},
	} {
		_, _, err := runCLI(t, args...)
		if err == nil {
			t.Errorf("pure-count %v succeeded", args)
			continue
		}
		if strings.TrimSpace(err.Error()) == "" || strings.Contains(err.Error(), "\n") {
			t.Errorf("pure-count %v: error %q is not one line", args, err)
		}
	}
}

func TestList_OneWorkloadALine(t *testing.T) {
	out, _, err := runCLI(t, "list")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sort-ints-10k", "itoa-strconv-10k", "itoa-fmt-10k"} {
		if !strings.Contains(out, name+" ") {
			t.Errorf("list lacks %s:\n%s", name, out)
		}
	}
	// Workloads that may rerun their region on one preparation say so.
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if rerun := strings.HasPrefix(l, "store-") || strings.HasPrefix(l, "bank-"); rerun != strings.HasSuffix(l, " [rerun]") {
			t.Errorf("list line %q: [rerun] mark should be %v", l, rerun)
		}
	}
}

// The sort neither allocates nor uses maps: under callgrind its count is
// identical in every fresh process.
func TestRun_CallgrindSortIsExact(t *testing.T) {
	if _, err := perfcount.ValgrindPath(); err != nil {
		if os.Getenv("CALLGRIND_OPTIONAL") == "1" {
			t.Skip("valgrind missing and CALLGRIND_OPTIONAL=1")
		}
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "run", "--backend", "callgrind", "-r", "3", "-n", "20", "--json", "sort-ints-10k")
	if err != nil {
		t.Fatal(err)
	}
	lines := jsonLines(t, out)
	sum := lines[len(lines)-1]
	if sum["kind"] != "summary" || sum["source"] != "callgrind" || sum["spread"].(float64) != 0 || sum["min"].(float64) < 1_000_000 {
		t.Errorf("sort under callgrind: want spread 0 over 3 runs of about 2.3 M instructions, got:\n%s", out)
	}
}

func TestRun_PerfSoftwareEvent(t *testing.T) {
	out, _, err := runCLI(t, "run", "-e", "task-clock", "-n", "1", "--json", "sort-ints-10k")
	if err != nil {
		t.Fatal(err)
	}
	l := jsonLines(t, out)[0]
	if l["source"] != "perf" || l["value"].(float64) <= 0 || l["per_op"].(float64) <= 0 || l["cpu_ns"].(float64) <= 0 {
		t.Errorf("perf task-clock run: %v", l)
	}
}

// Several regions in each of several processes: one run line per region,
// numbered within its repeat, and one summary over all of them.
func TestRun_RegionsPerProcess(t *testing.T) {
	out, _, err := runCLI(t, "run", "-e", "task-clock", "-n", "2", "-r", "2", "--regions", "3", "--json", "sort-ints-10k")
	if err != nil {
		t.Fatal(err)
	}
	lines := jsonLines(t, out)
	if len(lines) != 7 {
		t.Fatalf("want 6 run lines and a summary, got %d:\n%s", len(lines), out)
	}
	for i, l := range lines[:6] {
		rep, reg := float64(i/3+1), float64(i%3+1)
		if l["kind"] != "run" || l["repeat"] != rep || l["region"] != reg || l["ops"] != 2.0 || l["cpu_ns"].(float64) <= 0 {
			t.Errorf("line %d: want repeat %v region %v of 2 ops, got %v", i+1, rep, reg, l)
		}
	}
	if s := lines[6]; s["kind"] != "summary" || s["n"] != 6.0 {
		t.Errorf("summary: want n 6, got %v", s)
	}
}

func jsonLines(t *testing.T, s string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not JSON: %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

func TestGroup3(t *testing.T) {
	for in, want := range map[float64]string{0: "0", 999: "999", 1000: "1,000", 2295852: "2,295,852", 1234.5: "1,234.5", -1000: "-1,000"} {
		if got := group3(in); got != want {
			t.Errorf("group3(%v) = %q, want %q", in, got, want)
		}
	}
}
