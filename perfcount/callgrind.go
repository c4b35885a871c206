package perfcount

import (
	"fmt"
	"os"
	"runtime"
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
	ir, err := s.readTotal(name)
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

// readTotal is readCallgrindTotal for a region's dump: it also sets the
// count's Preempted. (A method, so that measure's code around the region,
// and with it the region's count, is what it was before Preempted existed.)
func (s *callgrindState) readTotal(name string) (uint64, error) {
	ir, preempted, err := readCallgrindTotal(name)
	s.counts[0].Preempted = preempted
	return ir, err
}

// SchedulerMarks are the runtime functions that run only when Go's
// scheduler takes the CPU from a running goroutine: sysmon's preemption of
// a goroutine that ran 10 ms of wall time goes through both, and so does
// runtime.Gosched through the second. A quiet region (pure-count's quiet
// start) never runs them; a region whose dump gives them instructions was
// preempted (Count.Preempted).
var SchedulerMarks = []string{"runtime.gopreempt_m", "runtime.goschedImpl"}

// readCallgrindTotal reads the Ir total of a callgrind dump, checks it
// against the sum of the dump's self costs, and reports whether a
// SchedulerMarks function counted instructions in it.
func readCallgrindTotal(path string) (ir uint64, preempted bool, err error) {
	p, err := callgrind.ParseFile(path)
	if err != nil {
		return 0, false, err
	}
	if err := p.Check(); err != nil {
		return 0, false, err
	}
	ir, err = p.Total("Ir")
	return ir, ranScheduler(p), err
}

// funcName returns the Go function a dump's function name stands for,
// without callgrind's recursion level ("f'2"). A binary without its symbol
// table (go run, go test) gives callgrind no names, only addresses
// ("0x000000000043c757"); those are looked up in this process's own
// function table, which the binary keeps: a region's dump is of this
// process, so its addresses are this process's.
func funcName(name string) string {
	if i := strings.IndexByte(name, '\''); i >= 0 {
		name = name[:i]
	}
	if hex, ok := strings.CutPrefix(name, "0x"); ok {
		if pc, err := strconv.ParseUint(hex, 16, 64); err == nil {
			if f := runtime.FuncForPC(uintptr(pc)); f != nil {
				return f.Name()
			}
		}
	}
	return name
}

// ranScheduler reports whether a SchedulerMarks function has a self cost
// in any part of p, which must be a dump of this process.
func ranScheduler(p *callgrind.Profile) bool {
	for _, part := range p.Parts {
		for _, f := range part.Functions {
			name := funcName(f.Name)
			for _, m := range SchedulerMarks {
				if name == m {
					for _, c := range f.Self {
						if c > 0 {
							return true
						}
					}
				}
			}
		}
	}
	return false
}
