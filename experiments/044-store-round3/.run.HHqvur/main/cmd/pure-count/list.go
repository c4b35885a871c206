package main

import (
	"fmt"
	"io"
	"os/exec"
	"strings"

	"workbench/perfcount"
	"workbench/perfcount/workload"
	_ "workbench/pure/apps/bank/bankwork" // registers the bank queries
	_ "workbench/pure/apps/tpcc/tpccwork" // registers TPC-C
	_ "workbench/pure/store/storework"    // registers the store workloads
)

func cmdList(args []string, stdout io.Writer) error {
	if len(args) > 0 {
		return usageError("list takes no arguments")
	}
	all := workload.All()
	width := 0
	for _, w := range all {
		width = max(width, len(w.Name))
	}
	for _, w := range all {
		mark := ""
		if w.Rerun {
			mark = " [rerun]" // run --rerun may time its regions on one preparation
		}
		fmt.Fprintf(stdout, "%-*s  %s%s\n", width, w.Name, w.Description, mark)
	}
	return nil
}

func cmdEvents(args []string, stdout io.Writer) error {
	if len(args) > 0 {
		return usageError("events takes no arguments")
	}
	names := perfcount.GenericEvents()
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	_, verr := exec.LookPath("valgrind")
	for _, n := range names {
		fmt.Fprintf(stdout, "%-*s  %s\n", width, n, countableHere(n, verr == nil))
	}
	// The named events this machine's PMUs list (on a Raspberry Pi 5:
	// armv8_cortex_a76/inst_retired/ and 40 more), with their raw codes.
	pmu, err := perfcount.PMUEvents()
	for _, e := range pmu {
		mark := "[not countable here]"
		if perfCounts([]perfcount.Event{e.Event}) {
			mark = "[countable here: perf]"
		}
		fmt.Fprintf(stdout, "%-*s  %s  %s\n", width, e.Event.Name, e.Terms, mark)
	}
	if err != nil {
		return fmt.Errorf("events: reading the PMUs' named events: %w", err)
	}
	return nil
}

// countableHere says which backends can count the generic event name on
// this machine: perf when perf_event opens it here, callgrind for
// instructions when valgrind is installed.
func countableHere(name string, valgrind bool) string {
	var by []string
	evs, err := perfcount.ParseEvents(name)
	if err == nil && perfCounts(evs) {
		by = append(by, "perf")
	}
	if name == "instructions" && valgrind {
		by = append(by, "callgrind")
	}
	if len(by) == 0 {
		return "[not countable here]"
	}
	return "[countable here: " + strings.Join(by, ", ") + "]"
}
