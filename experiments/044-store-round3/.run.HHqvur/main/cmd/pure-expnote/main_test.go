package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// Each hand-built note regenerates byte for byte from a copy of its
// experiment's runs.jsonl.
func TestRun_RegeneratesCommittedNotes(t *testing.T) {
	for name := range writers {
		t.Run(name, func(t *testing.T) {
			src := filepath.Join("..", "..", "experiments", name)
			dir := filepath.Join(t.TempDir(), name)
			if err := os.MkdirAll(dir, 0o755); err != nil {
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
			got, _ := os.ReadFile(filepath.Join(dir, "note.md"))
			want, _ := os.ReadFile(filepath.Join(src, "note.md"))
			if !bytes.Equal(got, want) {
				t.Errorf("note.md of %s differs from the committed one", name)
			}
		})
	}
}

func TestRun_UsageAndErrors(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"--help"}, &out, &errb); err != nil || !bytes.Contains(out.Bytes(), []byte("usage: pure-expnote")) {
		t.Errorf("--help: %v, %q", err, out.String())
	}
	if err := run(context.Background(), []string{"-x"}, &out, &errb); err != errUsage {
		t.Errorf("-x: %v, want the usage error", err)
	}
	if err := run(context.Background(), []string{t.TempDir()}, &out, &errb); err == nil {
		t.Error("an unknown experiment was accepted")
	}
}
