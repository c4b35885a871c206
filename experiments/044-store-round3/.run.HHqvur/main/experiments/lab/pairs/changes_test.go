package pairs

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A change that touches only experiment data (a numbered experiment, a
// probe, the index) changes no code; one to the lab's code does.
func TestChangesBetween_DataIsNotCode(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	write := func(path, text string) {
		p := filepath.Join(dir, path)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string) string {
		git("add", "-A")
		git("commit", "-q", "-m", msg)
		return git("rev-parse", "HEAD")[:40]
	}
	git("init", "-q")
	write("main.go", "package main\n")
	base := commit("base")
	write("experiments/028-x/runs.jsonl", "{}\n")
	write("experiments/probes/906-y/note.md", "# y\n")
	write("experiments/README.md", "# index\n")
	data := commit("experiment 028: data only")
	write("experiments/lab/judge/x.go", "package judge\n")
	code := commit("judge: a change")

	ctx := context.Background()
	c := changesBetween(ctx, dir, base, data)
	if c == nil || len(c.Commits) != 1 || c.Commits[0].Subject != "experiment 028: data only" || c.Diffstat != "" {
		t.Errorf("data only: %+v", c)
	}
	c = changesBetween(ctx, dir, data, code)
	if c == nil || c.Diffstat == "" {
		t.Errorf("the lab's code: %+v", c)
	}
	if c := changesBetween(ctx, dir, code, code); c == nil || len(c.Commits) != 0 || c.Diffstat != "" {
		t.Errorf("A/A: %+v", c)
	}
}
