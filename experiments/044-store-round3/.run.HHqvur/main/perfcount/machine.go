package perfcount

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Machine is the set of facts about the machine a measurement was taken on.
// Counts taken on different machines, kernels or CPUs are not comparable, so
// every Result carries one.
type Machine struct {
	Kernel   string   `json:"kernel"`
	CPUModel string   `json:"cpu_model"`
	NumCPU   int      `json:"num_cpu"`
	PMUs     []string `json:"pmus"`
	// Paranoid is the value of /proc/sys/kernel/perf_event_paranoid, or -99
	// when it could not be read.
	Paranoid int    `json:"perf_event_paranoid"`
	GOARCH   string `json:"goarch"`
	GOOS     string `json:"goos"`
}

// sysRoot is the root under which /proc and /sys are read; tests point it at
// a fixture tree.
var sysRoot = "/"

var (
	machineOnce sync.Once
	machine     Machine
)

// ThisMachine returns the facts of the machine the process runs on. They are
// read once and cached; the PMU list is sorted.
func ThisMachine() Machine {
	machineOnce.Do(func() { machine = readMachine(sysRoot) })
	m := machine
	m.PMUs = append([]string(nil), machine.PMUs...)
	return m
}

func readMachine(root string) Machine {
	m := Machine{
		Kernel:   strings.TrimSpace(readString(filepath.Join(root, "proc/sys/kernel/osrelease"))),
		CPUModel: cpuModel(readString(filepath.Join(root, "proc/cpuinfo"))),
		NumCPU:   onlineCPUs(root),
		Paranoid: -99,
		GOARCH:   runtime.GOARCH,
		GOOS:     runtime.GOOS,
	}
	if v, err := strconv.Atoi(strings.TrimSpace(readString(filepath.Join(root, "proc/sys/kernel/perf_event_paranoid")))); err == nil {
		m.Paranoid = v
	}
	if ents, err := os.ReadDir(filepath.Join(root, "sys/bus/event_source/devices")); err == nil {
		for _, e := range ents {
			m.PMUs = append(m.PMUs, e.Name())
		}
		sort.Strings(m.PMUs)
	}
	if m.CPUModel == "" {
		// Many ARM boards name the board, not the CPU, in the device tree.
		m.CPUModel = strings.TrimRight(readString(filepath.Join(root, "proc/device-tree/model")), "\x00\n")
	}
	return m
}

// onlineCPUs counts the CPUs in /sys/devices/system/cpu/online ("0-3,6"),
// the machine's, not the process's affinity mask (which taskset narrows).
func onlineCPUs(root string) int {
	n := 0
	for _, r := range strings.Split(strings.TrimSpace(readString(filepath.Join(root, "sys/devices/system/cpu/online"))), ",") {
		lo, hi, isRange := strings.Cut(r, "-")
		l, err1 := strconv.Atoi(lo)
		h, err2 := strconv.Atoi(hi)
		switch {
		case !isRange && err1 == nil:
			n++
		case isRange && err1 == nil && err2 == nil && h >= l:
			n += h - l + 1
		}
	}
	if n == 0 {
		return runtime.NumCPU()
	}
	return n
}

func readString(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return string(b)
}

// cpuModel picks the CPU's name out of /proc/cpuinfo: "model name" on x86,
// and on armv8, where there is none, the implementer and part numbers.
func cpuModel(cpuinfo string) string {
	var impl, part string
	sc := bufio.NewScanner(bytes.NewBufferString(cpuinfo))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "model name", "Model Name", "cpu model":
			if v != "" {
				return v
			}
		case "CPU implementer":
			if impl == "" {
				impl = v
			}
		case "CPU part":
			if part == "" {
				part = v
			}
		}
	}
	if impl != "" || part != "" {
		name := armPartName(impl, part)
		if name != "" {
			return name
		}
		return "ARM implementer " + impl + " part " + part
	}
	return ""
}

// armPartName names the common Arm Ltd cores found on teaching boards.
func armPartName(impl, part string) string {
	if impl != "0x41" {
		return ""
	}
	switch part {
	case "0xd03":
		return "Cortex-A53"
	case "0xd04":
		return "Cortex-A35"
	case "0xd05":
		return "Cortex-A55"
	case "0xd07":
		return "Cortex-A57"
	case "0xd08":
		return "Cortex-A72"
	case "0xd0b":
		return "Cortex-A76"
	case "0xd0c":
		return "Neoverse-N1"
	case "0xd40":
		return "Neoverse-V1"
	case "0xd49":
		return "Neoverse-N2"
	}
	return ""
}
