// Package kv is the storage shared by the hand-written HTTP baselines
// (workbench/pure/baseline/nethttp and workbench/pure/baseline/fasthttp):
// the documents and the scoreboard of the HTTP contract, kept the way a
// careful Go developer would keep them without a database, in one of three
// modes.
//
//   - Memory: a map under a sync.RWMutex. A document's ETag is its own
//     revision counter, 1 on the first PUT and one more on each PUT after.
//   - Fdatasync: the same map, and every write is first appended to one
//     log file and made durable with fdatasync before it is applied and
//     answered. Writes take turns on the log (one mutex); reads never wait
//     for a sync. Open replays the log; a torn record at its end (a crash
//     in the middle of an append that was never answered) is cut off.
//   - Crashsafe: every document is its own file, and every write replaces
//     the file the textbook way: write a temporary file in the same
//     directory, fsync it, rename it over the target, fsync the directory.
//     Scores are kept the same way, one small file per name (rewriting one
//     file holding every score would make each POST cost the whole
//     scoreboard; a file per name is what a developer reaching for
//     rename-based atomicity writes). Writes to different keys or names
//     run concurrently; writes to one key take turns (a lock per key), so
//     that If-Match is checked and applied atomically. The map stays in
//     memory as a read cache: GETs never touch the disk.
//
// Nothing is answered before it is durable: Put and AddScore return only
// after their sync.
//
// # Pieces
//
//	store.go    Store, Open, Get, Put, AddScore, Total, Leaders, Close
//	log.go      the fdatasync mode's log: record format, append, replay
//	files.go    the crashsafe mode's files: replace, load
//	request.go  the contract's request fields (keys, names, If-Match,
//	            points, from/count), shared by both HTTP baselines so
//	            that they refuse bad input with the same words
//	errors.go   sentinel errors
//
// # Files
//
// Fdatasync: DIR/kv.log, a sequence of records, each
// [len uint32][crc32c uint32][payload], little-endian, the CRC-32C over the
// payload. A payload is 'D' key-len(uvarint) key rev(uvarint) body-len(uvarint)
// body, or 'S' name-len(uvarint) name points(varint).
//
// Crashsafe: DIR/docs/d-KEY holds the decimal revision, a newline and the
// body; DIR/scores/s-ESCAPED holds a name's decimal score, where ESCAPED is
// url.PathEscape(name). Temporary files start with ".tmp-" and are removed
// by Open.
package kv
