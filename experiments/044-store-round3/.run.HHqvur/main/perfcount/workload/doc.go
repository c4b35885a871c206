// Package workload is the registry of in-process workloads that pure-count
// counts and the pairs runner judges.
//
// A workload is deterministic work with a fixed seed: New prepares its state
// for a number of operations outside any counted region, and returns the
// function the region counts. Packages register their workloads in init();
// cmd/pure-count imports every package that registers some, so
// `pure-count list` shows them all.
//
// This package also registers the counter's own workloads (sorting and
// integer formatting), which need nothing but the standard library.
package workload
