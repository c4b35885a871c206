package pairs

import (
	"os"
	"path/filepath"
	"testing"
)

// Use gives every process a fresh copy of its side's binaries: RunDir/bin
// points at a new directory holding the same bytes, and the copy before it
// is removed.
func TestUse_FreshCopyPerProcess(t *testing.T) {
	build := t.TempDir()
	if err := os.WriteFile(filepath.Join(build, "pure-count"), []byte("#!/bin/sh\necho fake\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := &Controls{RunDir: t.TempDir()}
	link := filepath.Join(c.RunDir, "bin")
	var targets []string
	for range 2 {
		if err := c.Use(Build{Dir: build}); err != nil {
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
