package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun_HelpAndBadFlags(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"-h"}, &out, &errb); err != nil || !strings.Contains(out.String(), "-experiments") {
		t.Errorf("-h: %v, %q", err, out.String())
	}
	out.Reset()
	err := run(context.Background(), []string{"--bogus"}, &out, &errb)
	if !errors.Is(err, errUsage) || strings.Count(errb.String(), "bogus") != 1 {
		t.Errorf("--bogus: %v, stderr %q", err, errb.String())
	}
}

// An index of a directory with one hand-built experiment is written, and
// again the same.
func TestRun_WritesTheIndex(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "001-x"), 0o755)
	os.WriteFile(filepath.Join(dir, "001-x", "note.md"), []byte("# 001: x\n"), 0o644)
	var out bytes.Buffer
	if err := run(context.Background(), []string{"--experiments", dir}, &out, &out); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	if err := run(context.Background(), []string{"--experiments", dir}, &out, &out); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	if !bytes.Contains(a, []byte("| 001 |")) || !bytes.Equal(a, b) {
		t.Errorf("index:\n%s", a)
	}
}
