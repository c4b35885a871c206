package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"workbench/experiments/lab/stats"

	"workbench/perfcount"
	"workbench/perfcount/callgrind"
	"workbench/perfcount/qemutrace"
	"workbench/perfcount/workload"
)

func buildGuest(ctx context.Context, dir, arch string) (string, error) {
	bin := filepath.Join(dir, "qcount-"+arch)
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "workbench/notebooks/qcount")
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+arch, "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("cross-build for %s: %v\n%s", arch, err, out)
	}
	return bin, nil
}

// countOnce runs the guest once and returns the region's instructions.
func countOnce(ctx context.Context, dir, bin, arch, via, w string, ops int) (uint64, error) {
	gargs := []string{guestCmd, "-n", strconv.Itoa(ops), w}
	var stderr bytes.Buffer
	if via == "callgrind" {
		vg, err := perfcount.ValgrindPath()
		if err != nil {
			return 0, err
		}
		out := filepath.Join(dir, "callgrind.out")
		args := []string{"--tool=callgrind", "--collect-atstart=no", "--toggle-collect=" + qemutrace.RunSymbol, "--callgrind-out-file=" + out, bin}
		cmd := exec.CommandContext(ctx, vg, append(args, gargs...)...)
		cmd.Env, cmd.Stderr = append(os.Environ(), qemutrace.GuestEnv...), &stderr
		after, cleanup, err := quietHost(cmd)
		if err != nil {
			return 0, err
		}
		defer cleanup()
		if err := cmd.Start(); err != nil {
			return 0, err
		}
		herr := after()
		if err := cmd.Wait(); err != nil || herr != nil {
			return 0, fmt.Errorf("valgrind: %v %v\n%s", err, herr, tailOf(stderr.String()))
		}
		p, err := callgrind.ParseFile(out)
		if err != nil {
			return 0, err
		}
		return p.Total("Ir")
	}
	q, err := qemutrace.Emulator(arch)
	if err != nil {
		return 0, err
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	cmd := exec.CommandContext(ctx, q, append(append(qemutrace.LogArgs(5), bin), gargs...)...)
	cmd.Env, cmd.Stderr = append(os.Environ(), qemutrace.GuestEnv...), &stderr
	cmd.ExtraFiles = []*os.File{pw} // fd 5, after the handshake's 3 and 4
	after, cleanup, err := quietHost(cmd)
	if err != nil {
		return 0, err
	}
	defer cleanup()
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return 0, err
	}
	pw.Close()
	herr := make(chan error, 1)
	go func() { herr <- after() }()
	t, rerr := qemutrace.Read(pr, qemutrace.Options{BySymbol: os.Getenv("QCOUNT_SYMBOLS") != ""})
	io.Copy(io.Discard, pr)
	pr.Close()
	if err := cmd.Wait(); err != nil {
		return 0, fmt.Errorf("%s: %v\n%s", q, err, tailOf(stderr.String()))
	}
	if err := <-herr; err != nil {
		return 0, err
	}
	if rerr != nil {
		return 0, rerr
	}
	if err := t.Err(); err != nil {
		return 0, err
	}
	if t.BySymbol != nil {
		printSymbols(os.Stderr, t.BySymbol)
	}
	return t.Region, nil
}

// printSymbols writes the region's instructions per function, largest
// first (QCOUNT_SYMBOLS=1), to see where a count went.
func printSymbols(w io.Writer, by map[string]uint64) {
	type kv struct {
		sym string
		n   uint64
	}
	var all []kv
	for s, n := range by {
		all = append(all, kv{s, n})
	}
	slices.SortFunc(all, func(a, b kv) int { return strings.Compare(fmt.Sprintf("%020d", b.n), fmt.Sprintf("%020d", a.n)) })
	for _, e := range all {
		fmt.Fprintf(w, "%14s  %s\n", group(e.n), e.sym)
	}
}

func printRow(w io.Writer, name, arch, via string, ops int, vals []uint64) {
	if ops == 0 {
		if wl, ok := workload.Lookup(name); ok {
			ops = wl.DefaultOps
		}
	}
	s := slices.Clone(vals)
	slices.Sort(s)
	fs := make([]float64, len(s))
	for i, v := range s {
		fs[i] = float64(v)
	}
	med := uint64(math.Round(stats.Median(fs)))
	spread := "identical"
	if s[0] != s[len(s)-1] {
		spread = fmt.Sprintf("%s..%s", group(s[0]), group(s[len(s)-1]))
	}
	perOp := float64(med) / float64(max(ops, 1))
	fmt.Fprintf(w, "%-18s %-6s %-10s %4d %16s %5d  %s\n", name, arch, via, ops, group(uint64(perOp+0.5)), len(vals), spread)
}

// group writes n with thousands separators.
func group(n uint64) string {
	s := strconv.FormatUint(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func tailOf(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 10 {
		lines = lines[len(lines)-10:]
	}
	return strings.Join(lines, "\n")
}
