package store

import (
	"errors"
	"fmt"
)

// Errors returned while opening a store.
var (
	// ErrNotStore means the file is not a store file: it is too short to hold
	// a file header or its header does not start with the store's magic bytes.
	// Check the path; the store never modifies such a file.
	ErrNotStore = errors.New("store: not a store file (wrong magic or too short)")

	// ErrVersion means the file is a store file of a format version this
	// package cannot read. Open it with the program that wrote it, or compact
	// it there first.
	ErrVersion = errors.New("store: unsupported file format version")

	// ErrCorrupt means the file or the tree failed verification: a checksum
	// did not match where no torn tail can explain it, or Check found a broken
	// invariant. The message says where. Restore from a copy; reopening does
	// not repair it.
	ErrCorrupt = errors.New("store: corrupt store")

	// ErrLocked means another Store handle (in this or another process) has
	// the file open. Close it first; a file has one writer at a time. Close
	// releases the lock at once: snapshots and borrowed values still held
	// from a closed handle stay readable and do not keep the file locked.
	ErrLocked = errors.New("store: file is locked by another handle")
)

// Errors returned while using an open store.
var (
	// ErrClosed means the Store was closed. Snapshots and borrowed values
	// taken before Close stay readable until released.
	ErrClosed = errors.New("store: store is closed")

	// ErrReadOnly means the store was opened with Options.ReadOnly and a
	// write, commit or compaction was attempted.
	ErrReadOnly = errors.New("store: store is read-only")
)

// Errors returned while building a transaction.
var (
	// ErrKeyEmpty means a key of length zero was given. Keys are 1 to
	// MaxKeySize bytes.
	ErrKeyEmpty = errors.New("store: empty key")

	// ErrKeyTooLarge means a key longer than MaxKeySize was given.
	ErrKeyTooLarge = errors.New("store: key longer than MaxKeySize")

	// ErrValueTooLarge means a value longer than MaxValueSize was given.
	ErrValueTooLarge = errors.New("store: value longer than MaxValueSize")

	// ErrTxDone means the transaction was already committed or rolled back.
	ErrTxDone = errors.New("store: transaction already committed or rolled back")
)

// Errors returned by Commit.
var (
	// ErrConflict means the transaction was refused because a revision it
	// relied on is stale: an expected revision did not match, or a key it
	// read or conditionally wrote was changed after its snapshot (by an
	// earlier commit or by an earlier transaction in the same group). Nothing
	// of the transaction was written. Re-read and retry.
	ErrConflict = errors.New("store: revision conflict")

	// ErrWriteFailed means a write or sync of the file failed. The commit
	// that saw it is not acknowledged: after a reopen it may be present or
	// absent. The handle refuses all further commits and compactions with
	// this error (wrapping the first cause) until the store is closed and
	// reopened; a failed sync is never retried as if it had succeeded.
	// Readers keep working on the last published version.
	ErrWriteFailed = errors.New("store: write failed; reopen the store")
)

// errorf wraps a sentinel with a detail message: errors.Is(err, sentinel)
// holds and the message says what and where.
func errorf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)
}
