package perfcount

import (
	"errors"
	"strings"
	"testing"
)

func withSysRoot(t *testing.T, root string) {
	t.Helper()
	old := sysRoot
	sysRoot = root
	t.Cleanup(func() { sysRoot = old })
}

func TestParseEvents_Generic(t *testing.T) {
	evs, err := ParseEvents("instructions,cycles:u,task-clock:k,page-faults,branch-misses:uk")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name           string
		typ            uint32
		config         uint64
		exUser, exKern bool
		pmu            bool
	}{
		{"instructions", typeHardware, 1, false, false, true},
		{"cycles:u", typeHardware, 0, false, true, true},
		{"task-clock:k", typeSoftware, 1, true, false, false},
		{"page-faults", typeSoftware, 2, false, false, false},
		{"branch-misses:uk", typeHardware, 5, false, false, true},
	}
	if len(evs) != len(want) {
		t.Fatalf("got %d events, want %d", len(evs), len(want))
	}
	for i, w := range want {
		e := evs[i]
		if e.Name != w.name || e.Type != w.typ || e.Config != w.config || e.ExcludeUser != w.exUser || e.ExcludeKernel != w.exKern || e.NeedsPMU() != w.pmu {
			t.Errorf("event %d = %+v, want %+v", i, e, w)
		}
	}
}

func TestParseEvents_Raw(t *testing.T) {
	evs, err := ParseEvents("r00c0,r1A2b:u")
	if err != nil {
		t.Fatal(err)
	}
	if evs[0].Type != typeRaw || evs[0].Config != 0xc0 || evs[1].Config != 0x1a2b || !evs[1].ExcludeKernel {
		t.Fatalf("raw events parsed as %+v", evs)
	}
}

func TestParseEvents_Errors(t *testing.T) {
	withSysRoot(t, "testdata/pi5")
	for _, spec := range []string{"", "instructions,,cycles", "instrucshuns", "cycles:p", "armv8_cortex_a76/inst_retired", "nosuchpmu/event=1/", "armv8_cortex_a76/bogus=1/", "armv8_cortex_a76/event=0x1ffff/"} {
		_, err := ParseEvents(spec)
		if err == nil {
			t.Errorf("ParseEvents(%q) succeeded, want an error", spec)
			continue
		}
		if spec != "" && !errors.Is(err, ErrUnknownEvent) {
			t.Errorf("ParseEvents(%q) = %v, want ErrUnknownEvent", spec, err)
		}
	}
}

func TestThisMachine(t *testing.T) {
	m := ThisMachine()
	if m.Kernel == "" || m.GOARCH == "" || m.NumCPU < 1 {
		t.Errorf("machine facts missing: %+v", m)
	}
}

func TestSplitEvents_KeepsPMUTermLists(t *testing.T) {
	got := strings.Join(splitEvents("cpu/event=0xc0,umask=0/,cycles"), "|")
	if got != "cpu/event=0xc0,umask=0/|cycles" {
		t.Errorf("split = %q", got)
	}
}
