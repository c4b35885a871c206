package perfcount

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A region's dump in which the scheduler ran is marked preempted; one in
// which a SchedulerMarks function is only named (callgrind lists names it
// saw, with no cost), or absent, is not. The totals are read either way.
func TestReadCallgrindTotal_Preempted(t *testing.T) {
	tests := []struct {
		name, dump string
		ir         uint64
		preempted  bool
	}{
		{"quiet", "events: Ir\nfn=(1) main.sort\n10 1000\nfn=(2) runtime.goschedImpl\ntotals: 1000\n", 1000, false},
		{"no scheduler", "events: Ir\nfn=main.sort\n10 1000\ntotals: 1000\n", 1000, false},
		{"preempted", "events: Ir\nfn=main.sort\n10 1000\nfn=runtime.newstack\n5 40\ncfn=runtime.gopreempt_m\ncalls=1 7\n7 30\n" +
			"fn=runtime.gopreempt_m\n7 3\ncfn=runtime.goschedImpl\ncalls=1 9\n9 27\nfn=runtime.goschedImpl\n9 27\ntotals: 1070\n", 1070, true},
		{"recursion level", "events: Ir\nfn=main.sort\n10 1000\nfn=runtime.goschedImpl'2\n9 27\ntotals: 1027\n", 1027, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "dump")
			if err := os.WriteFile(path, []byte(tt.dump), 0o644); err != nil {
				t.Fatal(err)
			}
			ir, preempted, err := readCallgrindTotal(path)
			if err != nil {
				t.Fatal(err)
			}
			if ir != tt.ir || preempted != tt.preempted {
				t.Errorf("readCallgrindTotal = %d, preempted %v; want %d, preempted %v", ir, preempted, tt.ir, tt.preempted)
			}
		})
	}
}

// A binary without its symbol table gives callgrind addresses for names;
// funcName finds the function at such an address in this process, at its
// entry or inside it, and drops recursion levels.
func TestFuncName(t *testing.T) {
	pc := reflect.ValueOf(TestFuncName).Pointer()
	want := "workbench/perfcount.TestFuncName"
	for _, name := range []string{fmt.Sprintf("0x%016x", pc), fmt.Sprintf("0x%016x'2", pc+4), want, want + "'3"} {
		if got := funcName(name); got != want {
			t.Errorf("funcName(%q) = %q, want %q", name, got, want)
		}
	}
	if got := funcName("0x0"); got != "0x0" {
		t.Errorf("funcName(0x0) = %q, want it kept", got)
	}
}
