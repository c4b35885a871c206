package httpbench

import (
	"math"
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
	before, err := ProcCPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	// Burn at least 100 ms of CPU (10 ticks) on this process's threads.
	var ru0 = cpuNow()
	for x := 0; cpuNow()-ru0 < 0.1; x++ {
		runtime.Gosched()
	}
	after, err := ProcCPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	if after-before < 0.05 {
		t.Errorf("ProcCPU grew by %.3f s over a 0.1 s busy loop (before %.2f, after %.2f)", after-before, before, after)
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
	rss, err := StatusKiB(pid, "VmRSS")
	if err != nil {
		t.Fatal(err)
	}
	hwm, err := StatusKiB(pid, "VmHWM") // read after: the peak only grows
	if err != nil {
		t.Fatal(err)
	}
	if rss <= 0 || hwm < rss {
		t.Errorf("VmRSS %d kB, then VmHWM %d kB: want a positive RSS and a peak at least as high", rss, hwm)
	}
	if _, err := StatusKiB(pid, "VmNothing"); err == nil {
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
	high, err := StatusKiB(pid, "VmHWM")
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
	debug.FreeOSMemory()
	if err := ResetPeakRSS(pid); err != nil {
		t.Fatalf("%v (needs Linux 4.0 and owning the process)", err)
	}
	low, err := StatusKiB(pid, "VmHWM")
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
		if kids, err = Children(os.Getpid()); err != nil {
			t.Fatal(err)
		}
		if slices.Contains(kids, cmd.Process.Pid) {
			return
		}
	}
	t.Errorf("children %v lack the started process %d", kids, cmd.Process.Pid)
}

func TestHostInfo_LoadAvg(t *testing.T) {
	if la := LoadAvg1(); la == nil || *la < 0 {
		t.Errorf("LoadAvg1() = %v, want a load average >= 0 from /proc/loadavg", la)
	}
	if h := HostInfo(); !strings.Contains(h, "CPUs, Linux ") {
		t.Errorf("HostInfo() = %q, want \"MODEL, N CPUs, Linux RELEASE\"", h)
	}
}

// TestCPUClock_Child_Grows reads a busy child's CPU time from outside it,
// twice, and checks it grew by about the CPU it burnt, to better than a
// clock tick.
func TestCPUClock_Child_Grows(t *testing.T) {
	cmd := exec.Command("sh", "-c", "while :; do :; done")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	first, err := CPUClock(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	second, err := CPUClock(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if second <= first || (second-first)%(10*time.Millisecond) == 0 {
		t.Errorf("CPU clock %v then %v: want it to grow, in finer steps than 10 ms ticks", first, second)
	}
	ticks, err := ProcCPU(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if d := ticks - second.Seconds(); d > 0.05 || d < -0.25 {
		t.Errorf("/proc says %.2f s, the CPU clock %.3f s: want them within a few ticks", ticks, second.Seconds())
	}
	// 2^22 is the largest pid_max Linux allows.
	if _, err := CPUClock(1<<22 + 1); err == nil {
		t.Errorf("the CPU clock of a process that does not exist gave no error")
	}
}

// TestParseMachineBusy: busy is every counter but idle and iowait, in
// clock ticks of 10 ms; a malformed first line is refused naming it.
func TestParseMachineBusy(t *testing.T) {
	got, err := parseMachineBusy([]byte("cpu  100 2 30 900 50 4 6 8 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n"))
	if want := (100 + 2 + 30 + 4 + 6 + 8) / 100.0; err != nil || math.Abs(got-want) > 1e-9 {
		t.Errorf("parseMachineBusy = %v, %v; want %v", got, err, want)
	}
	for _, bad := range []string{"", "intr 1 2 3\n", "cpu 1 2 3\n", "cpu 1 x 3 4 5 6 7 8\n"} {
		if _, err := parseMachineBusy([]byte(bad)); err == nil || !strings.Contains(err.Error(), "/proc/stat") {
			t.Errorf("parseMachineBusy(%q) = %v, want an error naming /proc/stat", bad, err)
		}
	}
	// The live file: busy grows while this process burns CPU.
	b0, err := MachineBusy()
	if err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(100 * time.Millisecond); time.Now().Before(end); {
	}
	if b1, err := MachineBusy(); err != nil || b1 < b0+0.05 {
		t.Errorf("MachineBusy grew from %v to %v (%v) while spinning 100 ms, want at least 50 ms", b0, b1, err)
	}
}
