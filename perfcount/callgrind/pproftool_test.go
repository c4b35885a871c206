package callgrind

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"testing"
)

// goTool is the go command of the toolchain running the test.
//
//lint:ignore SA1019 the toolchain that built this test binary is the one wanted, and go test runs it from that GOROOT
func goTool() string { return filepath.Join(runtime.GOROOT(), "bin", "go") }

var pprofTotalRE = regexp.MustCompile(`Showing nodes accounting for (-?\d+), [-\d.]+% of (\d+) total`)

// pprofTop runs "go tool pprof -top" and returns the shown and total
// values it prints for the sample type.
func pprofTop(t *testing.T, sampleType string, args ...string) (shown, total int64) {
	t.Helper()
	cmdArgs := append([]string{"tool", "pprof", "-top", "-nodefraction=0", "-sample_index=" + sampleType}, args...)
	out, err := exec.Command(goTool(), cmdArgs...).CombinedOutput()
	if err != nil {
		t.Fatalf("go %v: %v\n%s", cmdArgs, err, out)
	}
	m := pprofTotalRE.FindSubmatch(out)
	if m == nil {
		t.Fatalf("go %v: no total in output:\n%s", cmdArgs, out)
	}
	shown, _ = strconv.ParseInt(string(m[1]), 10, 64)
	total, _ = strconv.ParseInt(string(m[2]), 10, 64)
	return shown, total
}

// convertFixture converts a fixture with ConvertFile into dir.
func convertFixture(t *testing.T, dir, name string) string {
	t.Helper()
	out := filepath.Join(dir, name+".pb.gz")
	if err := ConvertFile(filepath.Join("testdata", name), out); err != nil {
		t.Fatalf("ConvertFile(%s): %v", name, err)
	}
	return out
}

// go tool pprof opens every converted fixture, and the total it prints
// for every event is the parser's total.
func TestConvertFile_PprofTop(t *testing.T) {
	dir := t.TempDir()
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			pb := convertFixture(t, dir, fx.name)
			p := parseFixture(t, fx.name)
			for _, ev := range p.Events() {
				want, err := p.Total(ev)
				if err != nil {
					t.Fatal(err)
				}
				shown, total := pprofTop(t, SampleTypeName(ev), pb)
				if uint64(total) != want || shown != total {
					t.Errorf("%s: pprof shows %d of %d total, callgrind total %d", ev, shown, total, want)
				}
			}
		})
	}
}

// go tool pprof -diff_base works on two converted files: the nodes shown
// add up to the difference of the totals.
func TestConvertFile_PprofDiffBase(t *testing.T) {
	dir := t.TempDir()
	base := convertFixture(t, dir, "go-toggle.callgrind")
	next := convertFixture(t, dir, "c-inline.callgrind")
	shown, total := pprofTop(t, "instructions", "-diff_base", base, next)
	if shown != 1973-4092 || total != 4092 {
		t.Errorf("diff shows %d of %d total, want %d of 4092", shown, total, 1973-4092)
	}
	same, _ := pprofTop(t, "instructions", "-diff_base", base, convertFixture(t, dir, "go-instr.callgrind"))
	if same != 0 {
		t.Errorf("diff of two runs with equal costs shows %d, want 0", same)
	}
}
