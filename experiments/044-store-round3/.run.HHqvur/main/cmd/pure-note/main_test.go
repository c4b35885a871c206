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

// Regenerating a note gives the same bytes as the golden note of the
// renderer's "worse" case.
func TestRun_RegeneratesByteForByte(t *testing.T) {
	src := filepath.Join("..", "..", "experiments", "lab", "note", "testdata", "same")
	dir := t.TempDir()
	for _, f := range []string{"runs.jsonl", "meta.json", "criteria", "calibration.jsonl"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	var out bytes.Buffer
	for i := 0; i < 2; i++ {
		if err := run(context.Background(), []string{dir}, &out, &out); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := os.ReadFile(filepath.Join(dir, "note.md"))
	want, _ := os.ReadFile(filepath.Join(src, "note.golden.md"))
	if !bytes.Equal(got, want) {
		t.Errorf("note differs from %s/note.golden.md", src)
	}
}

func TestRun_Errors(t *testing.T) {
	var out bytes.Buffer
	for _, args := range [][]string{{}, {"exp="}, {"exp=a/b"}, {t.TempDir()}} {
		if err := run(context.Background(), args, &out, &out); err == nil {
			t.Errorf("pure-note %v succeeded", args)
		}
	}
}

func TestRun_Help(t *testing.T) {
	for _, h := range []string{"-h", "--help"} {
		var out, errb bytes.Buffer
		if err := run(context.Background(), []string{h}, &out, &errb); err != nil || !strings.HasPrefix(out.String(), "usage: pure-note") || errb.Len() != 0 {
			t.Errorf("%s: %v, stdout %q, stderr %q", h, err, out.String(), errb.String())
		}
	}
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"--bogus"}, &out, &errb)
	if !errors.Is(err, errUsage) || strings.Count(errb.String(), "--bogus") != 1 {
		t.Errorf("--bogus: %v, stderr %q (want it named once, with the usage)", err, errb.String())
	}
}
