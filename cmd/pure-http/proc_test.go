package main

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
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
	rss, err := procStatusKiB(pid, "VmRSS")
	if err != nil {
		t.Fatal(err)
	}
	hwm, err := procStatusKiB(pid, "VmHWM") // read after: the peak only grows
	if err != nil {
		t.Fatal(err)
	}
	if rss <= 0 || hwm < rss {
		t.Errorf("VmRSS %d kB, then VmHWM %d kB: want a positive RSS and a peak at least as high", rss, hwm)
	}
	if _, err := procStatusKiB(pid, "VmNothing"); err == nil {
		t.Errorf("a missing field gave no error")
	}
}

// TestResetPeakRSS_Self raises this process's peak by 64 MiB, gives the
// memory back, and checks that the reset brings the peak down again.
func TestResetPeakRSS_Self(t *testing.T) {
	pid := os.Getpid()
	b := make([]byte, 64<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	high, err := procStatusKiB(pid, "VmHWM")
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
	debug.FreeOSMemory()
	if err := resetPeakRSS(pid); err != nil {
		t.Fatalf("%v (needs Linux 4.0 and owning the process)", err)
	}
	low, err := procStatusKiB(pid, "VmHWM")
	if err != nil {
		t.Fatal(err)
	}
	if high-low < 32<<10 {
		t.Errorf("VmHWM %d kB with 64 MiB held, %d kB after freeing it and the reset: want at least 32 MiB less", high, low)
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

func TestHostInfo_LoadAvg(t *testing.T) {
	if la := loadAvg1(); la == nil || *la < 0 {
		t.Errorf("loadAvg1() = %v, want a load average >= 0 from /proc/loadavg", la)
	}
	if h := hostInfo(); !strings.Contains(h, "CPUs, Linux ") {
		t.Errorf("hostInfo() = %q, want \"MODEL, N CPUs, Linux RELEASE\"", h)
	}
}
