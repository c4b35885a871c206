package perfcount

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"workbench/perfcount/callgrind"
)

// MarkerSymbol is the function a region runs in. Run by hand, callgrind
// counts regions only when told to toggle collection on it:
//
//	valgrind --tool=callgrind --collect-atstart=no \
//	    --toggle-collect=workbench/perfcount.callgrindRegion ./prog
//
// That needs the binary's symbol table, which `go run` and `go test` strip.
// Launchers in this module (CallgrindArgs with CallgrindEnv) therefore do
// not name the marker: the region toggles collection itself with callgrind
// client requests, which need no symbols and do not depend on callgrind
// following the Go runtime's stack switches.
const MarkerSymbol = "workbench/perfcount.callgrindRegion"

// toggleEnv tells a region that its launcher passed no --toggle-collect and
// that it must toggle collection itself.
const toggleEnv = "PURECOUNT_CALLGRIND_TOGGLE"

// OutFileEnv names the environment variable through which a launcher tells
// the process the --callgrind-out-file it gave valgrind; the dumps a Region
// asks for are then read from OUT.1, OUT.2, ... Without it, callgrind's
// default name callgrind.out.<pid> in the working directory is assumed.
const OutFileEnv = "PURECOUNT_CALLGRIND_OUT"

// callgrindRegion is the marker: collection is on exactly while it runs.
//
//go:noinline
func callgrindRegion(fn func()) { fn() }

// CallgrindArgs returns the valgrind options that count regions only (with
// CallgrindEnv in the environment) and write callgrind's output to outFile.
func CallgrindArgs(outFile string) []string {
	return []string{
		"--tool=callgrind",
		"--collect-atstart=no",
		"--callgrind-out-file=" + outFile,
	}
}

// CallgrindEnv returns the environment a Go program needs to run under this
// valgrind reliably: asynchronous preemption off (its signals crash
// callgrind), RDTSCP off (valgrind 3.19 does not decode it), one P, and no
// garbage collection, which would otherwise run at times that depend on the
// wall clock. Add it to the child's environment.
func CallgrindEnv(outFile string) []string {
	return []string{
		"GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off",
		"GOMAXPROCS=1",
		"GOGC=off",
		OutFileEnv + "=" + outFile,
		toggleEnv + "=request",
	}
}

type callgrindState struct {
	toggle bool // toggle collection with client requests
	base   string
	dumps  int
	keep   string
	counts []Count
}

func newCallgrindState(events []Event) (*callgrindState, error) {
	if !RunningOnValgrind() {
		return nil, fmt.Errorf("%w: start the program with valgrind %s (pure-count run --backend callgrind does this)",
			ErrNotUnderCallgrind, strings.Join(CallgrindArgs("OUT"), " "))
	}
	if len(events) != 1 || !isInstructions(events[0]) {
		return nil, fmt.Errorf("the callgrind backend counts instructions only (callgrind's Ir), not %q", eventNames(events))
	}
	base := os.Getenv(OutFileEnv)
	if base == "" {
		base = "callgrind.out." + strconv.Itoa(os.Getpid())
	}
	return &callgrindState{toggle: os.Getenv(toggleEnv) == "request", base: base, counts: []Count{{Event: events[0].Name, Source: SourceCallgrind}}}, nil
}

func isInstructions(e Event) bool {
	return e.Type == typeHardware && e.Config == 1 && !e.ExcludeUser
}

func (s *callgrindState) measure(fn func()) error {
	callgrindRequest(cgZeroStats)
	if s.toggle {
		callgrindRequest(cgToggleCollect)
		callgrindRegion(fn)
		callgrindRequest(cgToggleCollect)
	} else {
		callgrindRegion(fn)
	}
	callgrindRequest(cgDumpStats)
	s.dumps++
	name := s.base + "." + strconv.Itoa(s.dumps)
	ir, err := readCallgrindTotal(name)
	if err != nil {
		return fmt.Errorf("reading callgrind's dump: %w", err)
	}
	if s.keep != "" {
		err = os.Rename(name, s.keep)
	} else {
		err = os.Remove(name)
	}
	if err != nil {
		return err
	}
	if ir == 0 {
		return fmt.Errorf("callgrind counted nothing in the region: run the program under valgrind with %s, or with --collect-atstart=no --toggle-collect=%s on a binary that keeps its symbols (go build, not go run)",
			strings.Join(CallgrindArgs("OUT"), " "), MarkerSymbol)
	}
	s.counts[0].Value = ir
	return nil
}

// readCallgrindTotal reads the Ir total of a callgrind dump and checks it
// against the sum of the dump's self costs.
func readCallgrindTotal(path string) (uint64, error) {
	p, err := callgrind.ParseFile(path)
	if err != nil {
		return 0, err
	}
	if err := p.Check(); err != nil {
		return 0, err
	}
	return p.Total("Ir")
}
