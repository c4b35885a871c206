// Package store is Pure's tree store: a copy-on-write B+tree of ordered
// byte keys in one append-only file, read through a shared read-only memory
// mapping.
//
// # Using it
//
// Open (or OpenRAM) gives a *Store. Readers pin a *Snapshot and read values
// in place from the mapping (Get, Range) until they Release it; a value can
// be lent beyond the snapshot with Borrow. Writers Begin a *Tx, Put and
// Delete with an expected revision, and Commit; concurrent commits share
// one write and one sync. Compact rewrites the live tree into a new file
// under running readers and writers, and runs on its own once the file has
// grown enough (Options.AutoCompact); Check verifies everything. Every key carries the
// revision of the transaction that last wrote it: the documents' ETag, and
// the expectation of If-Match.
//
// # Pieces
//
//	format.go      file header, head record, record header, checksums
//	logrec.go      log records over the tree, overlays, folding
//	logheads.go    overlay heads: searching an overlay by its keys' first 8 bytes
//	ovrun.go       overlay runs: shared between versions, in the leader's arena
//	logview.go     the leader's view of a group: pending writes, revisions, new overlay
//	node.go        node and value records: reading in place, encoding
//	tree.go        the writer's working tree: edits, split, merge, spill
//	leaf.go        lazy leaves: edits listed over the clean leaf
//	patch.go       writing a node as a patched copy of its clean record
//	scratch.go     the leader's memory, reused from group to group
//	tx.go          transactions, revisions and conflicts
//	group.go       group commit: queue, leader hand-off, pipeline, gathering
//	commit.go      one group's write and its sync, in numbered steps
//	prealloc.go    zeros written ahead of the end, so syncs skip metadata
//	checkpoint.go  checkpoint slots: a synced head that recovery starts from
//	recover.go     finding the last valid head when opening
//	mapping.go     reference-counted mappings and published versions
//	cold.go        giving back written pages a window behind the end (RSS)
//	snapshot.go    snapshots, range scans, borrowed values
//	compact.go     compaction: online, automatic, and RAM mode's
//	copier.go      copying the live tree into the new file, in rounds
//	check.go       the consistency checker (and strict mode)
//	shape.go       node layout checks for walks of unverified bytes
//	file.go        the File interface, the mmap/fdatasync implementation
//	ram.go         RAM mode's in-memory File
//	errors.go      sentinel errors, by phase
//
// # File format
//
// All integers are little-endian. The file starts with a 64-byte header
// (magic "PURETREE", format version, where records start, the file's
// length when it was made, by Create or by a compaction before its
// rename, and CRC-32C of the header; files written before the length was
// recorded hold zero there), alone in the first 4 KiB page. Version 2
// files then hold two checkpoint slots, each in a page of its own (at
// 4096 and 8192), the only bytes ever rewritten in place:
//
//	slot          magic "PURECKPT", head offset u64, a copy of that head
//	              record (64 bytes), CRC-32C of the slot (84 bytes in all)
//
// Records start at 12288 and follow back to back, never modified once
// written:
//
//	every record  kind u8, flags u8, count u16, len u32, then len-8 bytes
//	'L' leaf      count entry offsets (u32), then entries:
//	              rev u64, valLen u32, keyLen u16, flags u8, pad u8,
//	              [valOff u64 if the value is out of line], key, [value]
//	'B' branch    count entry offsets (u32), then entries:
//	              child offset u64, keyLen u16, key (the child's first key)
//	'V' value     the bytes of one value longer than 1 KiB, referenced by
//	              its leaf, so rewriting the leaf does not copy it
//	'H' head      64 bytes: magic "PUREHEAD", seq, rev, root offset,
//	              previous head offset, key count, data CRC, head CRC
//	'D' log       (versions 3 and 4) base u64: the root it is laid over (the
//	              previous log record, or the tree's root node, 0 for the
//	              empty tree), then entries until len, each laid out as an
//	              inline leaf entry: rev u64, valLen u32, keyLen u16,
//	              flags u8 (2: a delete), pad u8, key, value
//
// Version 3 files are version 2 files that may hold log records; a head's
// root then names either a tree node or the newest log record of a chain
// over a tree. This package appends to version 2 files as version 2 (tree
// commits only, so a reader that knows no log record still reads them),
// and Compact rewrites them as version 4.
//
// Version 4 files are version 3 files whose heads count the keys of their
// tree alone: a head that names a log record counts the keys of the tree
// below the chain, not those the records add or delete (in version 3 it
// counts every key of its version; for a head naming a tree node the two
// are the same). Snapshot.Len and Stats add the records' part when asked.
// So a commit that appends a log record does not look up its keys in the
// tree to count them; the fold knows the tree's count exactly. This
// package appends to a version 3 file as version 3 (each head counting
// every key, so an older reader reads it) and Compact rewrites it as
// version 4; a reader that knows only versions 1 to 3 refuses a version 4
// file (ErrVersion).
//
// Version 1 files, written before checkpoints, have no slots: records
// start right after the header, at 64. This package reads both versions.
// It appends to a version 1 file as version 1 (no checkpoints, so every
// Open scans it in full) and Compact rewrites it as version 2; nothing is
// migrated at Open, which would mean copying the file. Head records are
// the same in both versions.
//
// A node is addressed by its file offset (0 means none). Nodes are split
// at about 2 KiB and edited nodes below a quarter of that are merged with a
// neighbour; all leaves are at the same depth. The split size is the
// writer's choice (readers accept any); it sets how many bytes a small
// commit writes, since each changed key's leaf and path are rewritten.
//
// # Commits and checksums
//
// A commit never overwrites a record: it appends the new copies of every
// node on the paths it changed (values first, children before parents, the
// root last), then a head naming the new root and the previous head, then
// calls fdatasync once. The head's data CRC covers every byte between the
// end of the previous head and itself, that is every record new since the
// previous head, which includes every newly reachable node and value; its
// head CRC covers the head itself. The nodes and the head go out in two
// writes followed by one sync, so a commit (or a group) costs one sync.
// An edited node is written as a copy of its clean record with the changed
// entries patched in (whole byte ranges copied, offsets shifted), not
// decoded and encoded again.
//
// Once the file holds 64 KiB, the writer keeps zeros written ahead of the
// end (256 KiB–2 MiB at a time): a commit then writes over blocks the file
// already has, and its sync skips the file system's metadata (length,
// block allocation), which on ext4 nearly halves its cost. The zeros are
// not records; only the commit that appends a chunk of them pays for it.
//
// # Log records and folds
//
// In a version 3 or 4 file a group does not rewrite the leaves and paths its
// keys live on: it appends one log record holding its puts and deletes
// (about 30 bytes plus key and value each) laid over the tip's root, and
// a head naming the record as the root. Readers see each version through
// its overlay, built once per version by the commit leader and never
// changed: the offsets of the newest log entry of each key of the chain,
// sorted by key, with each key's first 8 bytes as an integer beside it
// (in memory only), so a search compares integers before keys. The
// entries are cut into runs of at most 64, in an arena the leader only
// appends to, and indexed by each run's first entry (ovrun.go): a group's
// overlay shares with the one before it every run its keys do not fall
// in, and copies the others and the index, not the whole overlay. Get
// and Borrow look the key up there first (a delete
// makes it absent) and in the tree below otherwise; Range merges the two.
// Values read from log entries are lent from the mapping like any other.
// A Bloom filter, shared by the overlays from one fold to the next (each
// group adds its keys), lets a read of a key the overlay lacks usually
// skip the search.
// Once the overlay would hold more than Options.FoldEntries keys (1,024
// by default, 4,096 in RAM mode) or its records more than 4 MiB, the group that passes the
// bound folds: it applies the overlay and its own transactions to the
// tree, writes the changed nodes as a tree commit does, and its head
// names the new tree. A leaf and its path are so copied once per fold
// instead of once per group. At 64 writers a fold holds its leader for
// 0.25-0.5 ms and writes about 180 KB, over half of it branches copied for
// one child pointer each, whose sync takes 120-250 µs longer than a log
// group's (probe 985). Folding in a goroutine of its own, installed by a
// later group, cut the gaps before the folds' syncs about threefold but
// was no faster on two cores: the fold's CPU competed with the syncer and
// the next group, and its bytes stayed; applying the overlay before the
// group gathers did not shrink those gaps (experiment 137).
// Options.FoldEntries -1 makes every commit a tree commit. A leaf whose
// only edits are keys after its last one, and that outgrows the node size, stays where it is, at least half full: the
// new keys go to new leaves after it (leaf.go, spillAppended; keys
// inserted before the clean node's last ones cut it there, its tail a
// leaf of its own), so writers appending to their own ranges leave full
// leaves behind them instead of half-full ones rewritten again; and a
// lazy branch whose edited children
// split is written as a patched copy, their new entries inserted, without
// being decoded.
//
// # Checkpoints
//
// A checkpoint slot names a head whose sync has returned. A group writes
// one once ckptEvery bytes of records (4 MiB) follow the head the newest
// slot names: it names the head written before the group's own (synced,
// since the slot goes out with the group's head, only after the previous
// group's sync returned), and is made durable by the group's own sync, so
// checkpoints add no sync. The two
// slots alternate, and the next slot is written only after that sync
// returned, so at most one slot is unsynced at any time and the other
// holds a durable checkpoint. A crash can leave the slot being written
// old, new or torn; old and new name synced heads, and a torn slot fails
// its CRC, so Open uses the other. Close checkpoints the last head (one
// write and one sync), so a clean reopen verifies only that head.
// Compact's new file carries a checkpoint of its one head.
//
// # Recovery
//
// Open starts from the newest slot whose CRC verifies, if any. The head
// it names must read back exactly as the slot copied it (else ErrCorrupt:
// a slot is written only after its head was synced); that head's own
// checksum is verified, its data checksum and everything before it are
// not re-read. Open then scans the records after it: node and value
// records are skipped by length, and each head must verify both
// checksums, name the previous valid head as prev and carry seq one
// higher. The last head that does is the recovered version; anything after
// it is a torn tail (an unsynced commit cut by a crash or power loss, or
// preallocated zeros) and is truncated, then the truncation is synced,
// before any new commit. If a valid head is found beyond the point of
// damage, the damage is not a torn tail (something synced after it) and
// Open reports ErrCorrupt instead of truncating. Since records are only
// appended, bytes once synced are never at risk from a later crash. So
// Open's time grows with the records written since the last checkpoint,
// not with the file.
//
// Without a valid slot (version 1 files, a store that never wrote one)
// the scan starts at the first record. With Options.Strict it always does,
// verifying every commit, and a valid slot must then name a head of the
// verified chain.
//
// When the recovered head names a log record, Open walks its chain down
// to the tree and builds the version's overlay from it (at most
// FoldEntries keys and 4 MiB of records), checking each record's bounds
// and each entry's; damage found there is ErrCorrupt. In a version 3 file,
// to count the tree's own keys it looks each record key up in the tree,
// whose nodes may lie in the checkpointed prefix that a plain Open does
// not re-read: that lookup checks each node's bounds and layout first
// (shape.go), so damage met on its way is ErrCorrupt too, not a read
// outside the node. A version 4 head counts the tree's keys itself, so
// Open reads nothing of the tree; damage there is Check's to find.
//
// What a plain Open does not see: damage to records before the
// checkpointed head (bit rot, a bad copy) that leaves the head itself
// intact. Those bytes were checksummed when written, but a plain Open does
// not re-read them; a reader reaching a damaged node may read wrong bytes
// or panic. Check, and Open with
// Options.Strict, verify the whole file and report such damage as
// ErrCorrupt.
//
// # Group commit
//
// Committing transactions queue up. The first to find no active leader
// becomes leader; the others sleep. The leader takes the whole queue and
// applies the transactions in arrival order to a working copy of the tree
// as last written, refusing alone with ErrConflict each one whose expected
// or read revisions are stale (against the last written version and the
// transactions before it in the group). Groups are pipelined: while the
// previous group's sync is in flight, the leader keeps taking and applying
// what queues, and once its group is as large as the group synced last,
// it closes it and appends its records, without their head. The head is
// written only after the previous group's sync returned: by the leader
// itself if that sync had already returned (the inline path, the only one
// a lone writer takes), else by the store's syncer goroutine, which, the
// moment a sync returns, writes the head of the group left ready and
// syncs it. Either way the leader hands leadership to the first
// transaction that queued meanwhile, and when its group's sync returns the
// new version is published and each member woken with its own result. So
// the next group gathers, is applied and has its records written during a
// sync, every committer leads at most one round, and nothing is
// acknowledged or visible before its own group's sync, and every earlier
// group's, returned.
//
// A head is written only after the previous group's sync returned, so at
// most one written head is not yet synced, as without the pipeline: a
// crash can tear only the last commit (records written during a sync
// without their head are a torn tail), and a valid head after damage
// still means the damage is not a torn tail (see Recovery).
//
// With no sync in flight and writers committing together (the last group
// had more than one member), the leader waits up to Options.GroupWait
// (2 ms) for its group to reach that size: whole groups, every writer in
// each sync. A lone writer never waits, and neither does a group that
// gathered while a sync was in flight, unless it is large (16 writers
// or more with the group syncing) and came to hold every writer of the
// group synced before it: they came back within a sync, so it waits for
// the sync to return and merges with that group's writers. With one sync
// in flight, groups synced back to back hold at most half the writers
// each (a commit that arrives during a sync waits for the next), while
// whole groups leave the disk idle as the writers come back; whole groups
// win when the writers take less than a sync to come back, so a large
// group's wait is capped at the syncs' moving-average time (at least
// 100 µs), past which the late writers form the next group during its
// sync (group.go, Whole groups). From experiment 065 until probe 1009
// large groups were halved instead, to alternate back to back. On the
// AMD machine whole groups commit 1.19x the halves' rate at 64 writers
// with 0.70x the CPU per commit, 1.65x pebble against 1.33x (experiment
// 162, 12 of 12 rounds), and 1.35x at 32 writers, 1.64x at 16 (probe
// 1009); issue 15's benchmark note reads 1.69x pebble at 64 writers,
// 2.34x at 8 and 1.72x at 1 (experiment 163). kvbench's bare group
// commits (no index, one sync in flight) show the two disciplines' reach
// on a machine (probe 1008). On tmpfs, whose syncs take microseconds,
// the wait's 100 µs floor keeps large groups whole (experiments
// 169-174).
//
// A gathering leader asleep is woken when the sync returns, when the wait
// ends, or by the committer whose arrival brings the queue to the size
// the group still needs, at most 8: it takes and applies arrivals in
// chunks, not one wake-up per commit. At 64 writers that cut the whole
// process's CPU per commit to 0.85 x and raised commits per second
// 1.14 x (experiment 053, medians of 5 rounds against main).
//
// The rest of this section was measured with halved groups, whose syncs
// ran back to back (experiments 148-150, probes 984-1007); none of it
// moved the 64-writer rate as much as whole groups did.
//
// Between one sync's return and the next one's start the syncer publishes
// the version, wakes the synced group's leader and writes the next head:
// at 64 writers on the AMD machine the wake alone is about 8 µs a turn,
// about 5 % of the wall time (probe 984), since every writer is then
// parked and the wake must rouse the idle CPU. Three reorderings were
// timed and reverted (experiment 150, probe 999): starting the next
// group's writeback (sync_file_range) before the wake moved as much time
// into the turn as it took from the sync; writing the next head before
// the wake changed nothing; the leader starting its own records'
// writeback slowed the syncs. Syncing through an io_uring, waiting in the
// runtime's poller or in io_uring_enter, lost 15-17 % of the rate: the
// kernel runs such an fsync on a worker thread whose wake-ups cost more
// than the turn (probe 997). With halved groups the store stood at 1.36x
// pebble there (median of 20 rounds, experiment 148). The disk would
// finish 1.6x the syncs with two in flight on separate pages, but only
// 1.04-1.17x on the shared pages that consecutive groups write (probe
// 1002), and a probe-only syncer with two in flight, which the recovery
// rule above would not allow, ran at 0.70-0.75x (probe 1003). Nor is
// the gap this VM's costly wake-ups: with its idle vCPUs polling before
// they halt, the store commits 1.14x faster and pebble 1.27x (probe
// 1004). Nor can the store
// take that wake away for itself by having the synced group's leader
// poll for its result between runtime.Gosched calls instead of parking:
// 0.86-0.93x the rate at 1.7-1.8x the CPU per commit, the polling
// competing for the two CPUs with the next group and the syncer (probe
// 1007).
//
// A version 3 head carries the exact key count, so there the leader looks
// up every key a group writes that is in neither the group's own writes
// nor the tip's overlay: a descent of a mostly cold tree, 14 % of the
// samples of 64 writers in experiment 044. A version 4 head counts only
// the tree's keys (see File format), so the leader looks up only the keys
// that transactions read and must validate: in callgrind (experiment 059)
// that cut a one-key commit's instructions by 22 %, a 100-key commit's by
// 29 % and in-process TPC-C's by 14 %. Having the committers look those keys up
// beforehand in their snapshots' tree, in parallel with the leader (used
// when the tip's tree is the same tree), was measured and reverted
// (experiment 053): neither 64 nor 8 writers committed more per second,
// the whole process spent about 11 % more CPU per commit at 64 writers,
// and in one goroutine (RAM TPC-C) it only added instructions.
//
// A failed write or sync fails every transaction in the group, and the
// group applied behind it, unwritten; the handle refuses further writes
// (ErrWriteFailed) until it is reopened.
//
// # Readers and mappings
//
// A version (head + mapping) is published by an atomic pointer swap after
// its sync, so readers see only durable commits and never wait. The
// mapping covers more than the file so it rarely changes; when the file
// outgrows it, or compaction swaps in a new file, a new mapping is made.
// Mappings are reference counted: the writer, each version (published or
// waiting for its sync), each snapshot and each borrowed value hold one
// reference, and a mapping is unmapped when the last is released. That is why a borrowed value stays readable
// however the key or the file changes.
//
// Each mapping of an on-disk file also holds a duplicate of the file's
// descriptor, closed with the mapping, so a borrowed value can be lent by
// its location as well (Borrowed.Location: descriptor and offset) and sent
// from the page cache with sendfile(2); the old file stays open for it
// however the key or the file changes.
//
// # Misuse
//
// Release of a Snapshot or a Borrowed is idempotent: a second (or
// concurrent) Release does nothing, and so does Release of a transaction's
// snapshot (Tx.Snapshot), which the transaction releases when it ends.
// Snapshots and borrowed values are allocated per call, not pooled, so a
// stale pointer can never release an object handed to another reader.
// A read through a released snapshot (Get, Range, Borrow) panics with
// "store: Snapshot used after Release" rather than reading memory that may
// be unmapped.
//
// A *Tx is a small handle over a transaction's state, which is recycled
// when the transaction ends (and its Commit returned): the handle lets go
// of it then, so a stale handle's Put, Delete, Commit and Rollback return
// ErrTxDone and its Get finds nothing, whoever has the state now. The
// snapshot Tx.Snapshot lends is allocated for that handle and never
// recycled, so reading it after the end panics as above. Recycling the
// state (about 400 bytes) cut the bytes a 64-writer commit allocates
// from 961 to 338 with the edit slab (experiment 123).
//
// For a read path that allocates nothing, a caller may own a Snapshot or
// a Borrowed (embedded in a connection's state, say) and fill it again and
// again with Store.SnapshotInto, Snapshot.BorrowInto or Store.BorrowInto.
// It must be released before it is filled again: filling a live one
// panics with a message saying so, leaving it and its version untouched.
// Whoever fills it is its only releaser, since after a refill a stale
// Release would release the new filling.
//
// The file's advisory lock (flock) is held on a descriptor of its own that
// is never mapped, so Close releases it at once: the file can be opened
// again, in this process or another, while snapshots and borrowed values
// of the closed handle are still being read. They read the version they
// pinned; a new handle only appends, or renames a compacted file over the
// path, so the bytes they read are never changed under them.
//
// # Compaction
//
// Compact copies the nodes and values reachable from the current root
// (and, when log records are laid over the tree, one log record holding
// the newest entry of each of their keys) into path.compact under a
// single head (with a checkpoint naming it), syncs it,
// renames it over the file and syncs the directory, then publishes it. Old
// snapshots and borrowed values keep the old mapping, and with it the old
// file's inode, until released.
//
// A file is compacted online, in steps (compact.go): copy the tree of a
// pinned version while commits go on; then, in up to four rounds, copy the
// tree of the newest version, which copies only the nodes written since
// the round before (a node at a given offset never changes, so a map from
// old offsets to new ones tells what was copied); sync the new file; then,
// holding the writer lock, copy the last commits, write the head and its
// checkpoint, sync, rename and swap. Commits wait only for that last step,
// whose work is what was committed during the last round. Stats reports
// the longest such pause. The new file may hold copies of nodes that later
// rounds replaced; they are dead bytes like any other, and the head's data
// checksum covers them.
//
// By default (Options.AutoCompact) a commit that finds the file grown by
// 64 MiB plus its size after the last compaction (recorded in the file's
// header, so a reopened store goes on counting from it) starts a
// compaction in the background; one runs at a time, and if commits
// outrun it until the file has grown by twice that, the committer that
// sees it waits for it.
//
// A crash at any moment leaves the old file authoritative until the
// rename: the new file is whole and synced before it is renamed, and Open
// removes a leftover path.compact. After the rename, the path names the
// new file, which verifies on its own. Close abandons a compaction in
// progress (it stops at its next 1 MiB of copying) and removes its file.
//
// # RAM mode
//
// OpenRAM uses the same format in memory: writes copy into a byte slice
// that serves as the mapping, and sync does nothing. Memory grows with
// every commit (by a log record, and by a fold's nodes every FoldEntries
// keys), so RAM mode compacts automatically (Options.AutoCompact; by
// default once the image passes twice its compacted size plus a trigger
// of twice that size held between 16 and 128 MiB, so a small store under
// rewrites keeps a small image), in the committing leader with commits
// waiting.
//
// # Checking
//
// Check verifies the head chain's checksums, that each valid checkpoint
// slot names a head of that chain, the tree's structure and key order,
// value records, the log records over the tree (bounds, entries,
// revisions), the key count (of the tree in version 4, of tree and
// records together in version 3) and that no
// live records overlap.
// Options.Strict runs it after every commit (the last head's records and
// the whole tree) and at open (every head, from the first record,
// whatever the checkpoints say).
package store
