package measure

import (
	"os"
	"path/filepath"
	"testing"

	"workbench/experiments/lab/expdir"
)

// Use gives every process a fresh copy of its side's binaries: RunDir/bin
// points at a new directory holding the same bytes, and the copy before it
// is removed.
func TestUse_FreshCopyPerProcess(t *testing.T) {
	build := t.TempDir()
	if err := os.WriteFile(filepath.Join(build, "pure-count"), []byte("#!/bin/sh\necho fake\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := &Controls{Controls: expdir.Controls{RunDir: t.TempDir()}}
	link := filepath.Join(c.RunDir, "bin")
	var targets []string
	for range 2 {
		if err := c.Use(expdir.Build{Dir: build}); err != nil {
			t.Fatal(err)
		}
		target, err := os.Readlink(link)
		if err != nil {
			t.Fatal(err)
		}
		targets = append(targets, target)
		b, err := os.ReadFile(filepath.Join(link, "pure-count"))
		if err != nil || string(b) != "#!/bin/sh\necho fake\n" {
			t.Fatalf("copy holds %q (%v)", b, err)
		}
		if info, err := os.Stat(filepath.Join(link, "pure-count")); err != nil || info.Mode().Perm() != 0o755 {
			t.Fatalf("copy mode %v (%v)", info.Mode(), err)
		}
	}
	if targets[0] == targets[1] || targets[0] == build {
		t.Errorf("bin pointed at %v: want a fresh copy each time, never the build itself", targets)
	}
	if _, err := os.Stat(targets[0]); !os.IsNotExist(err) {
		t.Errorf("the first copy %s is still there (%v)", targets[0], err)
	}
}

func TestFreshCopies_StayUntilTidy(t *testing.T) {
	build := t.TempDir()
	if err := os.WriteFile(filepath.Join(build, "pure-count"), []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := &Controls{Controls: expdir.Controls{RunDir: t.TempDir()}}
	// A gated round: both sides' copies first, then bin points at each.
	a, err := c.copyBuild(expdir.Build{Dir: build})
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.copyBuild(expdir.Build{Dir: build})
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{a, b} {
		if err := c.point(dir); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(a, "pure-count")); err != nil {
		t.Errorf("the first side's copy went before tidy: %v", err)
	}
	c.tidy()
	if _, err := os.Stat(a); !os.IsNotExist(err) {
		t.Errorf("tidy left %s (%v)", a, err)
	}
	if target, err := os.Readlink(filepath.Join(c.RunDir, "bin")); err != nil || target != b {
		t.Errorf("bin points at %q (%v), want %q", target, err, b)
	}
	if _, err := os.Stat(filepath.Join(b, "pure-count")); err != nil {
		t.Errorf("tidy removed the copy bin points at: %v", err)
	}
}
