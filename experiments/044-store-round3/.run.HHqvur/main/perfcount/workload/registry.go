package workload

import (
	"fmt"
	"sort"
	"sync"
)

// Workload is deterministic work that can be counted.
type Workload struct {
	// Name is lower-case and dash-separated, for example "sort-ints-10k".
	Name string
	// Description is one short line for `pure-count list`.
	Description string
	// DefaultOps is the number of operations per region when none is asked.
	DefaultOps int
	// New prepares state for ops operations, outside any counted region and
	// from a fixed seed, and returns the function the region counts and a
	// cleanup to call afterwards (which may be nil). run performs exactly ops
	// operations and is called once.
	New func(ops int) (run func(), cleanup func(), err error)
	// Rerun is true when run may be called again after it returns and does
	// the same work each time on the same prepared state (a read-only
	// workload, or one that overwrites what it wrote). pure-count run
	// --rerun uses it to time many regions of one preparation.
	Rerun bool
}

var (
	mu        sync.Mutex
	workloads = map[string]Workload{}
)

// Register adds w to the registry. It panics when w has no name, no New, or
// a name already registered: registration happens in init functions, where
// such a mistake is a programming error.
func Register(w Workload) {
	mu.Lock()
	defer mu.Unlock()
	if w.Name == "" || w.New == nil {
		panic("workload: Register needs a Name and a New function")
	}
	if _, dup := workloads[w.Name]; dup {
		panic(fmt.Sprintf("workload: %q registered twice", w.Name))
	}
	if w.DefaultOps <= 0 {
		w.DefaultOps = 1
	}
	workloads[w.Name] = w
}

// Lookup returns the workload registered under name.
func Lookup(name string) (Workload, bool) {
	mu.Lock()
	defer mu.Unlock()
	w, ok := workloads[name]
	return w, ok
}

// All returns every registered workload, sorted by name.
func All() []Workload {
	mu.Lock()
	defer mu.Unlock()
	out := make([]Workload, 0, len(workloads))
	for _, w := range workloads {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
