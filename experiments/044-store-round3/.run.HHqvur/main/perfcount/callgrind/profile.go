package callgrind

// Profile is one parsed callgrind output file. A file holds one or more
// parts (dumps); name compression IDs are shared by all parts of a file.
// A Profile is plain data: it is safe for concurrent reads once Parse has
// returned, and nothing in it refers back to the input.
type Profile struct {
	Version int    // from "version:", 1 when absent
	Creator string // from "creator:", e.g. "callgrind-3.19.0"
	Parts   []*Part

	// Warnings lists lines that were skipped because they are outside the
	// supported subset but harmless (unknown header keys, for example).
	Warnings []error
}

// Part is one dump in a callgrind file: its header, the functions with
// their self costs and the call edges between them.
type Part struct {
	Number int    // from "part:", 0 when absent
	PID    int    // from "pid:", 0 when absent
	Thread int    // from "thread:", 0 when absent
	Cmd    string // from "cmd:", the profiled command line
	Line   int    // line of the file where this part's header starts

	// Desc holds the "desc:" lines without the key, e.g. "Trigger: Program termination".
	Desc []string

	// Positions names the subpositions at the start of each cost line:
	// "line" (the default), "instr", or both in the order "instr", "line".
	Positions []string

	// Events names the cost columns, e.g. ["Ir"]; every cost slice in the
	// part has len(Events) entries.
	Events []string

	// Summary and Totals are the costs given by the "summary:" and
	// "totals:" lines, nil when the line is absent.
	Summary []uint64
	Totals  []uint64

	// SelfSum is the sum of all self cost lines of the part, as computed
	// by the parser (call cost lines are inclusive and not part of it).
	SelfSum []uint64

	// Functions in order of first appearance, and call edges in file order.
	Functions []*Function
	Calls     []*Call
}

// Function is a function as callgrind names it: a symbol name in a source
// file of an object. Recursion levels that callgrind separates get their
// own Function ("fib'2").
type Function struct {
	Name   string // symbol name, e.g. "main.work" or "fib'2"
	File   string // source file current at the "fn=" line ("???" when unknown)
	Object string // ELF object from "ob=", empty when the file has none

	// Self is the function's self (exclusive) cost, one entry per event.
	Self []uint64

	// Lines is the self cost per source position, merged per position and
	// in order of first appearance.
	Lines []*LineCost
}

// LineCost is the self cost of one function at one position.
type LineCost struct {
	// File is the source file of the position. It differs from the
	// function's file for inlined code ("fi=" and "fe=" lines).
	File string
	Line uint64 // source line, 0 when positions has no "line" or it is unknown
	Addr uint64 // instruction address, 0 when positions has no "instr"
	Cost []uint64
}

// Call is one call edge at one call site: Count calls from Caller to
// Callee that cost Inclusive in total, the callee and everything it called.
type Call struct {
	Caller, Callee *Function
	Count          uint64
	Inclusive      []uint64

	// The call site in the caller.
	File string
	Line uint64
	Addr uint64
}
