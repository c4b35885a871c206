package main

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
)

func TestProcCPU_Self_Grows(t *testing.T) {
	pid := os.Getpid()
	before, err := procCPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	// Burn at least 100 ms of CPU (10 ticks) on this process's threads.
	var ru0 = cpuNow()
	for x := 0; cpuNow()-ru0 < 0.1; x++ {
		runtime.Gosched()
	}
	after, err := procCPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	if after-before < 0.05 {
		t.Errorf("procCPU grew by %.3f s over a 0.1 s busy loop (before %.2f, after %.2f)", after-before, before, after)
	}
}

// cpuNow is this process's user plus system CPU time from getrusage.
func cpuNow() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func TestProcStatusKiB_Self(t *testing.T) {
	pid := os.Getpid()
	hwm, err := procStatusKiB(pid, "VmHWM")
	if err != nil {
		t.Fatal(err)
	}
	rss, err := procStatusKiB(pid, "VmRSS")
	if err != nil {
		t.Fatal(err)
	}
	if hwm <= 0 || rss <= 0 || hwm < rss {
		t.Errorf("VmHWM %d kB, VmRSS %d kB: want both positive, the peak at least the current", hwm, rss)
	}
	if _, err := procStatusKiB(pid, "VmNothing"); err == nil {
		t.Errorf("a missing field gave no error")
	}
	if err := resetPeakRSS(pid); err != nil {
		t.Logf("clear_refs not writable here: %v", err)
	} else if h2, _ := procStatusKiB(pid, "VmHWM"); h2 > hwm {
		t.Errorf("VmHWM %d kB after reset, above %d before", h2, hwm)
	}
}

func TestProcChildren_Self(t *testing.T) {
	cmd := exec.Command("sleep", "5")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	var kids []int
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		var err error
		if kids, err = procChildren(os.Getpid()); err != nil {
			t.Fatal(err)
		}
		if slices.Contains(kids, cmd.Process.Pid) {
			return
		}
	}
	t.Errorf("children %v lack the started process %d", kids, cmd.Process.Pid)
}
