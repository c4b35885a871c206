package qemutrace

// The marker functions' symbols, as qemu's log names them.
const (
	// BeginSymbol is the function whose first execution opens the region;
	// its own block is not counted.
	BeginSymbol = "workbench/perfcount/qemutrace.regionBegin"
	// EndSymbol is the function whose first execution after BeginSymbol
	// closes the region; its block is not counted.
	EndSymbol = "workbench/perfcount/qemutrace.regionEnd"
	// RunSymbol is the function Region runs its argument in. Under
	// callgrind, --toggle-collect=RunSymbol counts the same work (a cross
	// check of the method on amd64).
	RunSymbol = "workbench/perfcount/qemutrace.regionRun"
)

// GuestEnv is the environment a Go guest runs in to be counted: one P, no
// collector and no asynchronous preemption, as under callgrind
// (perfcount.CallgrindEnv), so that the count does not depend on the wall
// clock.
var GuestEnv = []string{"GOMAXPROCS=1", "GOGC=off", "GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off"}

// Region runs fn between the marker functions, in the guest: the count
// covers what runs after regionBegin returns and before regionEnd is
// entered, fn and the calls around it.
func Region(fn func()) {
	regionBegin()
	regionRun(fn)
	regionEnd()
}

//go:noinline
func regionBegin() {}

//go:noinline
func regionRun(fn func()) { fn() }

//go:noinline
func regionEnd() {}
