package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Flags that do not apply to --arch, an unknown arch and a guest built for
// the wrong arch are usage errors that say what to do.
func TestRun_Arch_UsageErrors(t *testing.T) {
	self, err := os.Executable() // the test binary: built for this machine, not arm64
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--arch", "riscv64", "sort-ints-10k"}, "--arch riscv64: pure-count counts emulated instructions for arm64 or amd64"},
		{[]string{"--arch", "arm64", "--backend", "callgrind", "sort-ints-10k"}, "drop --backend"},
		{[]string{"--arch", "arm64", "-e", "cycles", "sort-ints-10k"}, "instructions only"},
		{[]string{"--arch", "arm64", "--regions", "2", "sort-ints-10k"}, "do not apply to --arch"},
		{[]string{"--guest", self, "sort-ints-10k"}, "add --arch"},
	} {
		_, _, err := runCLI(t, append([]string{"run"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) || exitCode(err) != 2 {
			t.Errorf("run %v: err = %v (exit %d), want a usage error containing %q", c.args, err, exitCode(err), c.want)
		}
	}
	if _, err := exec.LookPath("qemu-aarch64-static"); err != nil {
		t.Skip("qemu-aarch64-static is not installed (apt-get install -y qemu-user-static; .ci/run does): the --guest check runs after the emulator is found")
	}
	_, _, err = runCLI(t, "run", "--arch", "arm64", "--guest", self, "sort-ints-10k")
	if err == nil || !strings.Contains(err.Error(), "not arm64") {
		t.Errorf("--guest of the host's arch: err = %v, want it named as not arm64", err)
	}
}

// The sort neither allocates nor uses maps: counted from qemu's log, its
// arm64 count is the same in two fresh emulated processes, and it is
// labelled with its source.
func TestRun_Arch_Arm64SortCountedTwiceEqual(t *testing.T) {
	if _, err := exec.LookPath("qemu-aarch64-static"); err != nil {
		t.Skip("qemu-aarch64-static is not installed (apt-get install -y qemu-user-static; .ci/run does)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to cross-build pure-count for arm64")
	}
	out, _, err := runCLI(t, "run", "--arch", "arm64", "-n", "1", "-r", "2", "--json", "sort-ints-10k")
	if err != nil {
		t.Fatal(err)
	}
	lines := jsonLines(t, out)
	if len(lines) != 3 {
		t.Fatalf("want 2 run lines and a summary, got:\n%s", out)
	}
	a, b := lines[0], lines[1]
	for _, l := range lines {
		if l["source"] != "qemu-arm64" {
			t.Errorf("line %v: source is not qemu-arm64", l)
		}
	}
	if a["value"] != b["value"] || a["value"].(float64) < 1_000_000 {
		t.Errorf("arm64 sort of 10,000 ints: counts %v and %v, want two equal counts of about 2.2 M", a["value"], b["value"])
	}
	if m, _ := a["machine"].(map[string]any); m["goarch"] != "arm64" {
		t.Errorf("the guest's machine facts say goarch %v, want arm64", m["goarch"])
	}
}
