package callgrind

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// needValgrind returns the path of valgrind. Without it the test fails,
// unless CALLGRIND_OPTIONAL=1 says that skipping is acceptable here.
func needValgrind(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("valgrind")
	if err == nil {
		return path
	}
	if os.Getenv("CALLGRIND_OPTIONAL") == "1" {
		t.Skip("valgrind is not on PATH; skipped because CALLGRIND_OPTIONAL=1")
	}
	t.Fatal("valgrind is not on PATH: install it (apt-get install valgrind), or set CALLGRIND_OPTIONAL=1 to skip this test")
	return ""
}

var collectedRE = regexp.MustCompile(`Collected : (\d+)`)

// TestValgrind_Live runs the test program under callgrind now, so the
// fixtures cannot go stale against the installed valgrind: the parsed and
// the converted totals must equal the count valgrind itself reports.
func TestValgrind_Live(t *testing.T) {
	valgrind := needValgrind(t)
	dir := t.TempDir()
	prog := filepath.Join(dir, "goprog")
	build := exec.Command(goTool(), "build", "-o", prog, "./testdata/goprog/main.go")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the test program: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"lines", []string{"--toggle-collect=main.work", "--collect-atstart=no"}},
		{"instr", []string{"--toggle-collect=main.work", "--collect-atstart=no", "--dump-instr=yes", "--dump-line=yes"}},
		{"whole-program", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, tc.name+".callgrind")
			args := append([]string{"--tool=callgrind", "--callgrind-out-file=" + out}, tc.args...)
			cmd := exec.Command(valgrind, append(args, prog, "300")...)
			// Without these, Go programs can crash under valgrind.
			cmd.Env = append(os.Environ(), "GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off", "GOMAXPROCS=1")
			log, err := cmd.CombinedOutput()
			if err != nil {
				if platform := "for platform '" + runtime.GOARCH + "-linux'"; strings.Contains(string(log), "failed to start tool") && strings.Contains(string(log), platform) {
					// Under qemu-user (CI's arm64 tests) the program is
					// arm64 and valgrind the host's x86-64 one.
					t.Skipf("valgrind here cannot run %s programs (it has no tool %s): counted natively instead", runtime.GOARCH, platform)
				}
				t.Fatalf("valgrind %v: %v\n%s", args, err, log)
			}
			m := collectedRE.FindSubmatch(log)
			if m == nil {
				t.Fatalf("no \"Collected :\" count in valgrind's output:\n%s", log)
			}
			collected, _ := strconv.ParseUint(string(m[1]), 10, 64)
			if collected == 0 {
				t.Fatalf("valgrind collected nothing: is main.work still in the test program?\n%s", log)
			}

			p, err := ParseFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Check(); err != nil {
				t.Error(err)
			}
			if got, err := p.Total("Ir"); err != nil || got != collected {
				t.Errorf("Total(Ir) = %d, %v; valgrind collected %d", got, err, collected)
			}
			if u := misresolvedCallees(p); len(u) > 0 {
				t.Errorf("callees resolved to a second function of the same name (wrong cfi=/cob= defaults): %v", u)
			}
			names := make(map[string]bool)
			for _, f := range p.Parts[0].Functions {
				names[f.Name] = true
			}
			for _, want := range []string{"main.work", "main.mix", "main.leaf", "main.fib"} {
				if !names[want] {
					t.Errorf("function %s missing from the profile", want)
				}
			}

			pb := filepath.Join(dir, tc.name+".pb.gz")
			if err := ConvertFile(out, pb); err != nil {
				t.Fatal(err)
			}
			if shown, total := pprofTop(t, "instructions", pb); uint64(total) != collected || shown != total {
				t.Errorf("pprof shows %d of %d total; valgrind collected %d", shown, total, collected)
			}
		})
	}
}
