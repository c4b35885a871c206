package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

func TestRun_Help_ListsFlags(t *testing.T) {
	out, _, err := runCmd(t, "run", "--help")
	if err != nil || !strings.Contains(out, "pure-notebook check") || !strings.Contains(out, "-dir") {
		t.Fatalf("help = %q, %v", out, err)
	}
	if out, _, err := runCmd(t, "-h"); err != nil || !strings.Contains(out, "usage:") {
		t.Fatalf("-h = %q, %v", out, err)
	}
}

func TestRun_BadArguments_UsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"frobnicate"}, {"check", "--colour"}} {
		_, stderr, err := runCmd(t, args...)
		if _, ok := err.(usageError); !ok || !strings.Contains(stderr, "usage:") {
			t.Errorf("%q: err %v, stderr %q: want a usage error with usage", args, err, stderr)
		}
	}
}

func TestPick_Names(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"01-a.md", "02-b.md", "README.md"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	all, err := pick(dir, nil)
	if err != nil || len(all) != 2 {
		t.Fatalf("pick all = %v, %v", all, err)
	}
	for _, n := range []string{"02", "02-b", "02-b.md", "notebooks/02-b.md"} {
		got, err := pick(dir, []string{n})
		if err != nil || len(got) != 1 || filepath.Base(got[0]) != "02-b.md" {
			t.Errorf("pick %q = %v, %v", n, got, err)
		}
	}
	if _, err := pick(dir, []string{"03"}); err == nil || !strings.Contains(err.Error(), "use one of 01-a, 02-b") {
		t.Errorf("pick 03 = %v", err)
	}
}

func TestList_ShowsCells(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "01-a.md"), []byte("```sh run id=x checked\necho\n```\n"), 0o644)
	out, _, err := runCmd(t, "list", "--dir", dir)
	if err != nil || !strings.Contains(out, "01-a\n  x") || !strings.Contains(out, "checked") {
		t.Fatalf("list = %q, %v", out, err)
	}
}
