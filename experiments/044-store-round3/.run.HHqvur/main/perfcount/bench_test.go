package perfcount

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// BenchmarkBench_Sort10k sorts 10,000 seeded ints per op and reports
// instructions/op through Bench. It needs a PMU, or a run under callgrind
// (just bench, or TestBench_CallgrindOutputReadByBenchfmt).
func BenchmarkBench_Sort10k(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]int, 10_000)
	for i := range src {
		src[i] = rng.Int()
	}
	buf := make([]int, len(src))
	Bench(b, "instructions", func(b *testing.B) {
		for b.Loop() {
			copy(buf, src)
			slices.Sort(buf)
		}
	})
}

// The helper's output under callgrind is the Go benchmark format: benchfmt
// (what benchstat reads) finds an instructions/op value and the source.
func TestBench_CallgrindOutputReadByBenchfmt(t *testing.T) {
	requireValgrind(t)
	exe, _ := os.Executable()
	out := t.TempDir() + "/cg.out"
	args := append(CallgrindArgs(out), exe, "-test.run=^$", "-test.bench=^BenchmarkBench_Sort10k$", "-test.benchtime=3x")
	cmd := exec.Command("valgrind", args...)
	cmd.Env = append(os.Environ(), CallgrindEnv(out)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		skipIfValgrindLacksPlatform(t, stderr.String())
		t.Fatalf("benchmark under callgrind: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	r := benchfmt.NewReader(strings.NewReader(stdout.String()), "callgrind.txt")
	var ins float64
	var source string
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		for _, cfg := range res.Config {
			if cfg.Key == SourceConfigKey {
				source = string(cfg.Value)
			}
		}
		if v, ok := res.Value("instructions/op"); ok {
			ins = v
		}
	}
	if source != "callgrind" || ins < 100_000 || ins > 20_000_000 {
		t.Errorf("benchfmt read source %q and %.0f instructions/op from:\n%s", source, ins, stdout.String())
	}
}
