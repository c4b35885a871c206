// Command pure-kvbench measures Pure's tree store against bbolt and pebble
// on one disk, in one process, in rounds that rotate the contenders'
// order (package workbench/experiments/lab/kvbench), and writes one JSON
// line per measurement; its note subcommand turns those lines into a
// Markdown note.
//
//	pure-kvbench [-dir DIR] [-out FILE] [-rounds N] [-duration D] [-writers 1,8,64]
//	             [-keys N] [-contenders LIST] [-only writes|reads] [-probe N] [-seed N]
//	             [-cpuprofile FILE]
//	pure-kvbench note DIR
//
// Each round first probes the device (-probe appends of 4 KiB, each
// followed by fdatasync: p50 and p99), then runs every contender at every
// writer count (durable single-key commits for -duration), then loads
// -keys keys into every reading contender and measures point gets and
// 100-key range scans for -duration each. Every cell gets a fresh store
// directory under -dir, removed afterwards. Lines go to -out as each cell
// finishes; a human summary goes to stdout.
//
// The process is not pinned to CPUs. To pin it, run it under taskset
// (taskset -c 0,1 pure-kvbench ...); pinning would have to apply to every
// contender alike, which running them in one process already ensures.
//
// -cpuprofile writes a CPU profile of the whole run (every cell of it) for
// go tool pprof; run one contender at one writer count to profile a cell.
//
// note DIR reads DIR/runs.jsonl and writes DIR/note.md, the same bytes
// every time for the same lines.
package main
