// Package kvbench measures Pure's tree store (workbench/pure/store) against
// two established Go key-value stores, go.etcd.io/bbolt and
// github.com/cockroachdb/pebble, and against two ceilings of the disk: a
// loop that appends 4 KiB and calls fdatasync (one writer), and bare group
// commits with one sync in flight and no index (many writers).
//
// # Pieces
//
//	contender.go  Writer and Store, the interfaces every contender implements,
//	              and the registry of contenders (All, Lookup)
//	pure.go       workbench/pure/store
//	bbolt.go      bbolt, committing with DB.Update or with DB.Batch
//	pebble.go     pebble, committing with Sync: true; counts its syncs
//	              through a vfs.FS wrapper
//	raw.go        the append+fdatasync writer and the device's fsync Probe
//	group.go      bare group commits: one sync in flight, no index
//	keys.go       key layout of the loaded store and of each writer
//	writes.go     Writes: N goroutines making durable single-key commits
//	reads.go      Load, PointGets and Ranges on a loaded store
//	result.go     Result: operations, time, latency percentiles, CPU, syncs
//	plan.go       the cells of one round, in rotated order (Plan)
//	record.go     Record, the JSON line written per cell
//	note.go       WriteNote, the experiment's note.md from its records, with the
//	              lab's one median (stats.Median) and table writer (mdtable)
//
// # Method
//
// A cell is one contender running one workload once, in a fresh directory:
// durable-commit-W (W writers, each committing its own new keys, one
// 16-byte value per transaction), point-get or range-100 (one reader on a
// store bulk-loaded with sequential keys outside the measured region). A
// round runs every cell once; Plan rotates the contenders' order from round
// to round so that no contender always runs first, or always runs on a
// disk that the others have just warmed or worn.
//
// Every result carries the CPU time of the whole process (getrusage user
// plus system, so background goroutines such as pebble's compactions are
// charged to their store) and the heap allocations of the whole process.
// Syncs are counted only where the contender can report them: the pure
// store's published heads (one fdatasync each, by the store's design), the
// Sync/SyncData calls pebble makes through its file system, and the probe's
// own loop. bbolt's syncs are not counted (it calls fdatasync on its own
// *os.File); they are reported as unknown, never estimated.
//
// Nothing here asserts a time or a rate: measurements are the experiment's
// (experiments/002-store-against-bbolt-and-pebble), and its note compares
// them as ratios of contenders measured in the same round.
package kvbench
