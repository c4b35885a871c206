package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rounds.md of probe 903 regenerates from its runs.jsonl: the same bytes
// but for the directory the generator line names.
func TestRun_RegeneratesRoundsOf903(t *testing.T) {
	src := filepath.Join("..", "..", "experiments", "probes", "903-probe-rounds-a")
	dir := filepath.Join(t.TempDir(), "903-probe-rounds-a")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	runs, err := os.ReadFile(filepath.Join(src, "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "runs.jsonl"), runs, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{dir}, &out, &out); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "rounds.md"))
	want, _ := os.ReadFile(filepath.Join(src, "rounds.md"))
	got = []byte(strings.ReplaceAll(string(got), dir, "experiments/probes/903-probe-rounds-a"))
	if !bytes.Equal(got, want) {
		t.Errorf("rounds.md differs from the committed one:\n%s", got)
	}
}

func TestRun_Usage(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"-h"}, &out, &errb); err != nil || !strings.HasPrefix(out.String(), "usage: pure-rounds") {
		t.Errorf("-h: %v, %q", err, out.String())
	}
	if err := run(context.Background(), nil, &out, &errb); err != errUsage {
		t.Errorf("no arguments: %v", err)
	}
	if err := run(context.Background(), []string{"--bogus"}, &out, &errb); err != errUsage || strings.Count(errb.String(), "--bogus") != 1 {
		t.Errorf("unknown flag: %v, reported %q", err, errb.String())
	}
}
