package quiet

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestMain runs the child's half when the test binary is started as one.
func TestMain(m *testing.M) {
	switch os.Getenv("QUIET_TEST_CHILD") {
	case "handshake":
		GrowStack(64 << 10)
		if err := Child(); err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(3)
		}
		os.Stdout.WriteString("went ahead")
		os.Exit(0)
	case "leave":
		os.Exit(0) // ends without the handshake
	}
	os.Exit(m.Run())
}

func child(t *testing.T, mode string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "QUIET_TEST_CHILD="+mode)
	return cmd
}

// TestQuiet_Handshake: the child waits for the go-ahead, and gets it only after
// the parent's delay.
func TestQuiet_Handshake(t *testing.T) {
	cmd := child(t, "handshake")
	var out strings.Builder
	cmd.Stdout = &out
	after, cleanup, err := Parent(cmd, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if err := after(); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(t0); waited < 50*time.Millisecond {
		t.Errorf("the go-ahead went after %v, before the delay", waited)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
	if out.String() != "went ahead" {
		t.Errorf("child wrote %q, want %q", out.String(), "went ahead")
	}
}

// TestQuiet_ChildLeaves: a child that ends without the handshake is an error
// that says so, not a hang.
func TestQuiet_ChildLeaves(t *testing.T) {
	cmd := child(t, "leave")
	after, cleanup, err := Parent(cmd, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	err = after()
	cmd.Wait()
	if err == nil || !strings.Contains(err.Error(), "ended before it was ready") {
		t.Fatalf("after() = %v, want the child's early end named", err)
	}
}
