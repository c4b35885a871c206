package httpbench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"workbench/pure/load"
)

// A Loader runs pure-load. The zero Loader is not usable: Path is
// required.
type Loader struct {
	// Path is the pure-load binary.
	Path string
	// CPU is the taskset -c list it is pinned to; empty: not pinned.
	CPU string
	// Env is its environment; nil is this process's. GOMAXPROCS=1 is
	// added either way: one load thread on its one CPU.
	Env []string
	// Via, when set, is a command prefix that runs pure-load elsewhere,
	// like ssh HOST: the command line becomes Via, then taskset (if CPU),
	// then env GOMAXPROCS=1, Path and the arguments, so the settings reach
	// the far side, where Path is pure-load's path. Env is then the local
	// environment of Via's command.
	Via []string
}

// Argv returns the command line that runs pure-load --json with args.
func (l Loader) Argv(args ...string) []string {
	argv := append([]string{l.Path, "--json"}, args...)
	if len(l.Via) > 0 {
		argv = append([]string{"env", "GOMAXPROCS=1"}, argv...)
	}
	if l.CPU != "" {
		argv = append([]string{"taskset", "-c", l.CPU}, argv...)
	}
	return append(append([]string(nil), l.Via...), argv...)
}

// Run runs pure-load --json with args and returns its result. A run that
// printed no result, or exited with an error having answered nothing, is
// an error naming the arguments and pure-load's stderr; one that exited
// with an error after some answers returns them (its errors are counted in
// the result).
func (l Loader) Run(ctx context.Context, args ...string) (load.Result, error) {
	argv := l.Argv(args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(append([]string(nil), l.Env...), "GOMAXPROCS=1")
	if l.Env == nil {
		cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var res load.Result
	if jerr := json.Unmarshal(bytes.TrimSpace(out), &res); jerr != nil || res.Tool != "pure-load" {
		hint := ""
		if len(l.Via) > 0 {
			hint = fmt.Sprintf(" (run through %q: %s must be pure-load on that side, built there with go build ./cmd/pure-load)", strings.Join(l.Via, " "), l.Path)
		}
		return res, fmt.Errorf("pure-load %s: %v, output %q (stderr: %s)%s", strings.Join(args, " "), err, out, strings.TrimSpace(stderr.String()), hint)
	}
	if err != nil && res.OK == 0 {
		return res, fmt.Errorf("pure-load %s: %v (stderr: %s)", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return res, nil
}

// Prepare runs pure-load with args to prepare a store; every request
// must succeed. what names the preparation in errors.
func (l Loader) Prepare(ctx context.Context, what string, args ...string) error {
	res, err := l.Run(ctx, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if res.Non2xx > 0 || res.Errors.Total() > 0 {
		return fmt.Errorf("%s: %d of %d requests failed (%d non-2xx, errors %+v): the server does not keep the contract", what, res.Non2xx+res.Errors.Total(), res.Requests, res.Non2xx, res.Errors)
	}
	return nil
}

// PrepareFor prepares the store of the server at url for pure-load's
// workload: the seed's 65 documents before document GETs (get, big), 1,600
// score inputs on 16 connections before the views (total, leaders);
// nothing for writes, which make their own. It reports what it did, ""
// for nothing.
func (l Loader) PrepareFor(ctx context.Context, url, workload string) (string, error) {
	switch load.Workload(workload) {
	case load.WorkloadGet, load.WorkloadBig:
		return "seed", l.Prepare(ctx, "seed", "--workload", "seed", url)
	case load.WorkloadTotal, load.WorkloadLeaders:
		return "scores for the views", l.Prepare(ctx, "scores for the views", "--workload", "score", "-c", "16", "-n", "1600", url)
	}
	return "", nil
}
