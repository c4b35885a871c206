//go:build linux

package perfcount

import (
	"errors"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// The armv8 hardware path, tested against fixture trees shaped like what a
// Raspberry Pi 5 (Cortex-A76) and a Pi 4 (Cortex-A72) expose under /proc
// and /sys (testdata/make-pi-trees writes them and says where each fact
// comes from). Without a board only the counting itself is left untested:
// everything up to the perf_event_attr handed to perf_event_open is here.

// A76 and A72 events with their architected numbers, as the kernel names them.
var armv8Events = map[string]uint64{
	"inst_retired": 0x08, "cpu_cycles": 0x11, "br_mis_pred": 0x10, "br_pred": 0x12,
	"l1d_cache": 0x04, "l1d_cache_refill": 0x03, "l1i_cache": 0x14, "l1i_cache_refill": 0x01,
	"l2d_cache": 0x16, "l2d_cache_refill": 0x17, "inst_spec": 0x1b, "mem_access": 0x13,
}

// Only the ARMv8.2 A76 implements these; the A72 (ARMv8.0) does not.
var a76Only = map[string]uint64{
	"br_retired": 0x21, "br_mis_pred_retired": 0x22, "stall_frontend": 0x23, "stall_backend": 0x24,
	"l1d_tlb": 0x25, "ll_cache_rd": 0x36, "ll_cache_miss_rd": 0x37,
}

func TestPMUEvents_Pi5_CortexA76(t *testing.T) {
	evs, err := pmuEvents("testdata/pi5")
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 41 {
		t.Errorf("%d events listed, want the A76's 41", len(evs))
	}
	got := map[string]PMUEvent{}
	for i, e := range evs {
		if e.PMU != "armv8_cortex_a76" || e.Event.Type != 8 || e.Event.PMU != "armv8_cortex_a76" {
			t.Errorf("event %+v: want PMU armv8_cortex_a76 of type 8", e)
		}
		if i > 0 && evs[i-1].Name >= e.Name {
			t.Errorf("events not sorted by name: %s before %s", evs[i-1].Name, e.Name)
		}
		got[e.Name] = e
	}
	for _, want := range []map[string]uint64{armv8Events, a76Only} {
		for name, code := range want {
			e, ok := got[name]
			if !ok {
				t.Errorf("%s not listed", name)
				continue
			}
			if e.Event.Config != code || e.Event.Config1 != 0 || e.Terms != "event="+hex4(code) || e.Event.Name != "armv8_cortex_a76/"+name+"/" {
				t.Errorf("%s = %+v, want config %#x from terms event=%s", name, e, code, hex4(code))
			}
		}
	}
	if _, ok := got["chain"]; ok {
		t.Error("the chain event is listed; the kernel never shows it")
	}
}

func TestPMUEvents_Pi4_CortexA72(t *testing.T) {
	evs, err := pmuEvents("testdata/pi4")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]uint64{}
	for _, e := range evs {
		if e.PMU != "armv8_cortex_a72" {
			t.Errorf("event %+v: want PMU armv8_cortex_a72", e)
		}
		got[e.Name] = e.Event.Config
	}
	if len(got) != 24 {
		t.Errorf("%d events listed, want the A72's 24", len(got))
	}
	for name, code := range armv8Events {
		if got[name] != code {
			t.Errorf("%s = %#x, want %#x", name, got[name], code)
		}
	}
	for name := range a76Only {
		if _, ok := got[name]; ok {
			t.Errorf("%s listed on the A72, which does not implement it", name)
		}
	}
}

// Named events resolve from either tree by bare name (any PMU, any case)
// or as pmu/name/, and term lists fill the config words the format files
// name: event in config bits 0-15, long in config1 bit 0.
func TestParseEvents_Armv8Names(t *testing.T) {
	for _, tc := range []struct{ root, pmu string }{{"testdata/pi5", "armv8_cortex_a76"}, {"testdata/pi4", "armv8_cortex_a72"}} {
		withSysRoot(t, tc.root)
		evs, err := ParseEvents("INST_RETIRED," + tc.pmu + "/cpu_cycles/:u," + tc.pmu + "/event=0x1b,long/,l1d_cache_refill:k,r0010")
		if err != nil {
			t.Fatalf("%s: %v", tc.root, err)
		}
		want := []struct {
			typ       uint32
			cfg, cfg1 uint64
			pmu       string
			exU, exK  bool
		}{
			{8, 0x08, 0, tc.pmu, false, false},
			{8, 0x11, 0, tc.pmu, false, true},
			{8, 0x1b, 1, tc.pmu, false, false},
			{8, 0x03, 0, tc.pmu, true, false},
			{typeRaw, 0x10, 0, "cpu", false, false}, // a raw code goes to the CPU's PMU through PERF_TYPE_RAW
		}
		for i, w := range want {
			e := evs[i]
			if e.Type != w.typ || e.Config != w.cfg || e.Config1 != w.cfg1 || e.PMU != w.pmu || e.ExcludeUser != w.exU || e.ExcludeKernel != w.exK {
				t.Errorf("%s: event %d (%s) = %+v, want %+v", tc.root, i, e.Name, e, w)
			}
		}
	}
}

// On a Pi 4, an A76-only event is refused before anything is opened, with
// the PMUs that were searched.
func TestParseEvents_Pi4_A76OnlyEvent_Refused(t *testing.T) {
	withSysRoot(t, "testdata/pi4")
	_, err := ParseEvents("br_retired")
	if !errors.Is(err, ErrUnknownEvent) || !strings.Contains(err.Error(), "armv8_cortex_a72") {
		t.Fatalf("br_retired on a Pi 4 = %v, want ErrUnknownEvent naming the PMUs searched", err)
	}
	withSysRoot(t, "testdata/pi5")
	if _, err := ParseEvents("br_retired"); err != nil {
		t.Fatalf("br_retired on a Pi 5: %v", err)
	}
}

// The perf_event_attr for armv8 events: the PMU's dynamic type and the
// event number, read together as a group, :u and :k as exclusions; the
// leader starts disabled, a command's counters are inherited and enabled
// on exec.
func TestEventAttr_Armv8(t *testing.T) {
	withSysRoot(t, "testdata/pi5")
	evs := MustParseEvents("inst_retired:u,armv8_cortex_a76/event=0x23,long/")
	lead := eventAttr(evs[0], true, modeThread)
	member := eventAttr(evs[1], false, modeExec)
	if lead.Type != 8 || lead.Config != 0x08 || lead.Size == 0 ||
		lead.Read_format != formatTotalTimeEnabled|formatTotalTimeRunning|formatID|formatGroup {
		t.Errorf("leader attr = %+v", lead)
	}
	wantLead := uint64(unix.PerfBitDisabled | unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv)
	if lead.Bits != wantLead {
		t.Errorf("leader bits %#x, want %#x (disabled, exclude kernel and hypervisor)", lead.Bits, wantLead)
	}
	if member.Type != 8 || member.Config != 0x23 || member.Ext1 != 1 {
		t.Errorf("member attr = %+v, want type 8, config 0x23, config1 1 (long)", member)
	}
	if wantMember := uint64(unix.PerfBitExcludeHv | unix.PerfBitInherit); member.Bits != wantMember {
		t.Errorf("member bits %#x, want %#x (inherit, not disabled)", member.Bits, wantMember)
	}
	if b := eventAttr(evs[0], true, modeExec).Bits; b&unix.PerfBitEnableOnExec == 0 || b&unix.PerfBitInherit == 0 {
		t.Errorf("command-scope leader bits %#x: want enable_on_exec and inherit", b)
	}
}

// What a Pi without its PMU node says (the kernel answers ENOENT for a
// hardware event, as on a VM), and what a refused configuration says. (The
// EACCES advice reads this machine's perf_event_paranoid through
// ThisMachine, which caches: TestOpenError_Messages covers it, here it
// would cache the fixture for every later test.)
func TestOpenError_Armv8(t *testing.T) {
	withSysRoot(t, "testdata/pi5")
	ev := MustParseEvents("inst_retired")[0]
	if err := openError(ev, unix.ENOENT); !errors.Is(err, ErrNoPMU) || !strings.Contains(err.Error(), "inst_retired") {
		t.Errorf("ENOENT: %v, want ErrNoPMU naming the event", err)
	}
	if err := openError(ev, unix.EINVAL); !strings.Contains(err.Error(), "type 8 config 0x8") {
		t.Errorf("EINVAL: %v, want the type and config the kernel refused", err)
	}
}

func TestReadMachine_PiFixtures(t *testing.T) {
	for _, tc := range []struct{ root, kernel, cpu, pmu string }{
		{"testdata/pi5", "6.6.31+rpt-rpi-2712", "Cortex-A76", "armv8_cortex_a76"},
		{"testdata/pi4", "6.6.31+rpt-rpi-v8", "Cortex-A72", "armv8_cortex_a72"},
	} {
		m := readMachine(tc.root)
		if m.Kernel != tc.kernel || m.CPUModel != tc.cpu || m.Paranoid != 2 || m.NumCPU != 4 {
			t.Errorf("%s: machine = %+v", tc.root, m)
		}
		if got := strings.Join(m.PMUs, ","); got != tc.pmu+",breakpoint,kprobe,software,tracepoint,uprobe" {
			t.Errorf("%s: PMUs = %s", tc.root, got)
		}
	}
}

func hex4(v uint64) string {
	const digits = "0123456789abcdef"
	return "0x" + string([]byte{digits[v>>12&15], digits[v>>8&15], digits[v>>4&15], digits[v&15]})
}
