package perfcount

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// TestFSType names a temporary directory's file system as statfs does, and
// a missing path as unknown.
func TestFSType(t *testing.T) {
	if got := FSType(filepath.Join(t.TempDir(), "missing", "dir")); got != "unknown" {
		t.Errorf("FSType(missing path) = %q, want unknown", got)
	}
	if runtime.GOOS != "linux" {
		return
	}
	dir := t.TempDir()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	got := FSType(dir)
	if got == "unknown" || got == "" {
		t.Fatalf("FSType(%s) = %q, want the file system's name", dir, got)
	}
	// A name for the magic numbers it knows, the number itself otherwise.
	if got[0] == '0' && got != fmt.Sprintf("0x%x", st.Type) {
		t.Errorf("FSType(%s) = %q, want 0x%x", dir, got, st.Type)
	}
}
