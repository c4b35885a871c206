package main

import (
	"flag"
	"fmt"
	"io"

	"workbench/perfcount/qemutrace"
	"workbench/perfcount/workload"
	_ "workbench/pure/store/storework" // registers the store's workloads
)

// guestCmd is the hidden subcommand the counted binary runs as.
const guestCmd = "__guest"

// guest prepares one workload outside the region and runs it inside
// qemutrace.Region. Under qemu the host counts the blocks executed between
// the entries of its begin and end markers; under callgrind,
// --toggle-collect=qemutrace.RunSymbol counts the run inclusively.
func guest(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet(guestCmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	ops := fs.Int("n", 0, "operations")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%s: name one workload", guestCmd)
	}
	w, ok := workload.Lookup(fs.Arg(0))
	if !ok {
		return fmt.Errorf("unknown workload %q: see go run ./cmd/pure-count list", fs.Arg(0))
	}
	n := *ops
	if n == 0 {
		n = w.DefaultOps
	}
	run, cleanup, err := w.New(n)
	if err != nil {
		return fmt.Errorf("workload %s: %w", w.Name, err)
	}
	if err := quietGuest(); err != nil {
		return err
	}
	qemutrace.Region(run)
	if cleanup != nil {
		cleanup()
	}
	return nil
}
