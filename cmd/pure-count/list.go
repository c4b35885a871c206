package main

import (
	"fmt"
	"io"
	"strings"

	"workbench/perfcount"
	"workbench/perfcount/workload"
	_ "workbench/pure/store/storework" // registers the store workloads
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
	fmt.Fprintln(stdout, strings.Join(perfcount.GenericEvents(), "\n"))
	return nil
}
