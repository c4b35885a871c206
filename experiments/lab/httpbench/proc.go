package httpbench

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/PID/stat:
// 100 on every Linux architecture Go supports (the kernel exports it as a
// constant to user space whatever its internal HZ).
const clockTicks = 100

// ProcCPU returns the user plus system CPU time, in seconds, that process
// pid has used so far with all its threads (the thread group's totals in
// /proc/PID/stat, fields 14 and 15). Its resolution is a clock tick, 10 ms:
// CPUClock is finer.
func ProcCPU(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("server CPU: %w", err)
	}
	// The command name (field 2) is in parentheses and may hold spaces:
	// count fields from the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("server CPU: /proc/%d/stat has no ')': %q", pid, b)
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state), so utime (14) is f[11] and stime (15) f[12].
	if len(f) < 13 {
		return 0, fmt.Errorf("server CPU: /proc/%d/stat has %d fields after the name, want at least 13", pid, len(f))
	}
	ut, err1 := strconv.ParseUint(f[11], 10, 64)
	st, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("server CPU: /proc/%d/stat: utime %q, stime %q are not numbers", pid, f[11], f[12])
	}
	return float64(ut+st) / clockTicks, nil
}

// StatusKiB returns a "kB" field of /proc/PID/status, such as VmHWM (the
// peak resident set size) or VmRSS.
func StatusKiB(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("server memory: %w", err)
	}
	for line := range strings.Lines(string(b)) {
		rest, ok := strings.CutPrefix(line, field+":")
		if !ok {
			continue
		}
		num, ok := strings.CutSuffix(strings.TrimSpace(rest), " kB")
		v, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
		if !ok || err != nil {
			return 0, fmt.Errorf("server memory: /proc/%d/status: %s is %q, want \"N kB\"", pid, field, strings.TrimSpace(rest))
		}
		return v, nil
	}
	return 0, fmt.Errorf("server memory: /proc/%d/status has no %s line", pid, field)
}

// ResetPeakRSS makes VmHWM start again from the current RSS (writing 5 to
// /proc/PID/clear_refs, Linux 4.0 and later), so that a peak read later
// belongs to what ran since.
func ResetPeakRSS(pid int) error {
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
		return fmt.Errorf("reset peak RSS: %w", err)
	}
	return nil
}

// Children returns the children of pid (all threads' children, from
// /proc/PID/task/*/children); nginx's workers are its master's children.
func Children(pid int) ([]int, error) {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return nil, fmt.Errorf("children of %d: %w", pid, err)
	}
	var kids []int
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
		if err != nil {
			continue // the thread ended
		}
		for _, s := range strings.Fields(string(b)) {
			k, err := strconv.Atoi(s)
			if err != nil {
				return nil, fmt.Errorf("children of %d: %q is not a pid", pid, s)
			}
			kids = append(kids, k)
		}
	}
	return kids, nil
}

// LoadAvg1 returns the 1-minute load average, or nil if unknown.
func LoadAvg1() *float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return nil
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return nil
	}
	return &v
}

// HostInfo describes the machine: its CPU model (the first "model name"
// of /proc/cpuinfo, or unknown), the CPUs online and the kernel release.
func HostInfo() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(b)) {
			k, v, ok := strings.Cut(line, ":")
			if ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	kernel := "unknown kernel"
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		kernel = "Linux " + strings.TrimSpace(string(b))
	}
	return fmt.Sprintf("%s, %d CPUs, %s", model, runtime.NumCPU(), kernel)
}

// MachineBusy returns the CPU time, in seconds, that all CPUs of the
// machine have spent busy so far: user, nice, system, irq, softirq and
// steal from the first line of /proc/stat (everything but idle and
// iowait). Its change over a run, less the server's and the load's own
// CPU, is what else the machine did meanwhile: other processes, kernel
// threads, interrupts not charged to either, and the hypervisor's steal.
// Unlike the load average it does not count threads waiting in fsync.
func MachineBusy() (float64, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, fmt.Errorf("machine CPU: %w", err)
	}
	return parseMachineBusy(b)
}

// parseMachineBusy reads MachineBusy's figure from /proc/stat's text.
func parseMachineBusy(b []byte) (float64, error) {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := strings.Fields(string(line))
	// cpu user nice system idle iowait irq softirq steal ...
	if len(f) < 9 || f[0] != "cpu" {
		return 0, fmt.Errorf("machine CPU: /proc/stat's first line is %q, want \"cpu\" and at least 8 counters", line)
	}
	var busy uint64
	for i, name := range []string{"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"} {
		v, err := strconv.ParseUint(f[i+1], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("machine CPU: /proc/stat's %s is %q, not a number", name, f[i+1])
		}
		if name != "idle" && name != "iowait" {
			busy += v
		}
	}
	return float64(busy) / clockTicks, nil
}
