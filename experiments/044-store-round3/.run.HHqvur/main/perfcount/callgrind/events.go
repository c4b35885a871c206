package callgrind

// sampleTypeNames maps callgrind event names to pprof sample type names.
// Events not listed keep their callgrind name.
var sampleTypeNames = map[string]string{
	"Ir":  "instructions",
	"Dr":  "data_reads",
	"Dw":  "data_writes",
	"Bc":  "cond_branches",
	"Bcm": "cond_branch_misses",
	"Bi":  "indirect_branches",
	"Bim": "indirect_branch_misses",
}

// SampleTypeName returns the pprof sample type name for a callgrind
// event: "instructions" for "Ir", "data_reads" for "Dr" and so on for the
// events of callgrind's branch simulator; other events keep their name.
// The unit is always "count".
func SampleTypeName(event string) string {
	if n, ok := sampleTypeNames[event]; ok {
		return n
	}
	return event
}
