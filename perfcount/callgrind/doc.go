// Package callgrind reads the output files of valgrind's callgrind tool
// and converts them to pprof profiles, so that instruction counts taken
// under callgrind can be read with "go tool pprof" and compared with
// "go tool pprof -diff_base".
//
// # Pieces
//
// Parse and ParseFile read a file into a Profile: its parts, each with
// its events, the "summary:" and "totals:" lines, the sum of self costs
// computed while reading, the functions with their self cost per source
// line, and the call edges with call counts and inclusive costs.
// Profile.Total gives a file's total for an event such as "Ir", and
// Profile.Check verifies that the file's own total equals the sum of its
// self costs. Convert makes a pprof profile of a Profile, and ConvertFile
// does all three steps from a callgrind file to a .pb.gz file.
//
// # Format subset
//
// The reader follows the Callgrind Format Specification (format version
// 1) as written by valgrind 3.19:
//
//   - header lines "version:", "creator:", "pid:", "thread:", "part:",
//     "cmd:", "desc:", "positions:" (any of instr, bb, line), "events:"
//     (any number of events), "summary:" and "totals:"; "event:" lines
//     (long names, inherited events) are ignored, and unknown keys are
//     skipped with a warning in Profile.Warnings;
//   - position lines ob=, fl=, fi=, fe=, fn=, cob=, cfi=, cfl= and cfn=,
//     with name compression "(N) name" and "(N)"; like callgrind, the
//     reader keeps one ID table for files (fl, fi, fe, cfi, cfl, jfi), one
//     for objects (ob, cob) and one for functions (fn, cfn, jfn), valid to
//     the end of the file;
//   - cost lines with subposition compression ("+N", "-N", "*", decimal
//     or 0x hexadecimal), fewer costs than events (the rest are zero), and
//     several cost lines for one position (summed);
//   - "calls=COUNT TARGET" followed by the call's cost line, which gives
//     the call site and the inclusive cost of the calls; the target
//     position is relative to the previous cost line and does not move it;
//   - "jump=" and "jcnd=" lines, whose position line is read and ignored;
//   - several parts in one file (--combine-dumps=yes): a header line
//     after a body line or after "totals:" starts a new part.
//
// A callee is identified by cob= and cfi= when they precede its cfn=,
// and otherwise by the current object and source file, as callgrind
// writes them. Inlined code (fi=, fe=) keeps its own source file in
// LineCost.File but is counted in the enclosing function.
//
// Parsing stops at the first malformed line with a *SyntaxError that
// gives the line number and what was expected; a file cut inside a call
// record is an error, and a file cut elsewhere fails Check because its
// summary: line no longer matches (unless the cut came before that line
// and left no costs at all). No input makes the reader panic (FuzzParse),
// and its work is linear in the input: every line costs time in its
// length plus a few map operations.
//
// # pprof profiles
//
// Convert makes one sample type per event, with unit "count", named by
// SampleTypeName ("instructions" for Ir); the first event is the default
// sample type. A pprof function is a callgrind function in one source
// file (inlined code from another file appears as a function of the same
// name in that file), and a location is a function at one source line;
// instruction addresses are not kept, and each ELF object becomes a
// mapping that carries only its name. All parts are summed.
//
// Sample values are the self costs exactly: for every event, the sum of
// all sample values equals Profile.SelfTotal, which equals Profile.Total
// when Check passes. The flat column of "go tool pprof -top" therefore
// adds up to callgrind's total, and -diff_base works between two
// converted files of the same events.
//
// # Stacks and their limits
//
// Callgrind records only caller-to-callee edges with inclusive costs,
// not the stacks the costs were spent under, so the stacks in the
// converted profile are inferred, never measured. The leaf frame of each
// sample is exact: the function and line where the cost was spent.
//
// With StacksCallers (the default) the frames above it are built the way
// gprof builds its call graph: assuming that every call of a function
// costs the same, the share of a function's self cost that reached it
// through one call site is that site's inclusive cost (of the first
// event) over the inclusive cost of all call sites into the function.
// Repeating this at each caller gives a tree of weighted caller chains,
// and each line's cost is split down the tree by largest remainder, so
// every split is exact in integers and the values still add up. A chain
// ends at a function with no recorded caller, after Options.MaxDepth
// callers, where a branch would carry less than Options.MinWeight of the
// function's cost (such branches end at the frame they branch from), and
// at recursion: a caller whose name (in the same object) is already on
// the chain is left out and its share goes to the other callers, so no
// function appears twice in a stack. Callgrind itself names deeper
// recursion levels apart ("fib'2"), and those names are kept.
//
// The consequences: flat values are exact. Cumulative values are exact
// for a function whose callees, and theirs in turn, are called only from
// within it (main.work in the test program, for example), as long as no
// chain through it was cut short as above; otherwise they are estimates:
// a callee that is cheap when called from A and expensive from B has its
// cost spread over A and B in proportion to the inclusive costs of the
// two call sites, which are measured, but frames further up use averages. In Go programs, callgrind's call tracking is confused by
// goroutine stack switches, so edges among runtime functions (and thus
// inferred stacks through the runtime) can look odd. With StacksFlat
// every sample has a single frame and cumulative equals flat.
//
// # Calls made before counting began
//
// A dump of a region counted with collection toggled (--collect-atstart=no,
// as perfcount's regions are) holds call edges with a call count of 0: the
// calls that were open when collection began, from main down to the
// region's marker, with the whole region as their inclusive cost. They
// carry no information about how the region's cost divides among callers,
// and in Go programs they can be wrong: callgrind follows calls by a
// shadow stack checked against the stack pointer, and when the runtime
// copies a goroutine's stack to a larger one (runtime.morestack) before the
// region, the frames recorded on the old stack may never be popped, so a
// return is taken for a call (main.growStackFrames'2 calling
// main.cmdMeasure, seen in pure-count's dumps when the new stack landed
// below the old one, which depends on the heap's state and so on timing).
// Edges with a zero call count are therefore left out of inference: a
// region's inferred chains end at the first frame whose call was made
// while counting. Their costs are not lost: self costs are kept whole.
//
// Samples number at most the sum over source lines of the smaller of the
// line's cost and the size of its function's caller tree, which has at
// most MaxDepth/MinWeight nodes.
package callgrind
