package store

// Preallocation. A sync after an append also commits the file system's
// metadata (the new length, newly allocated blocks): on ext4 a journal
// commit, about 0.3 ms on the VMs measured, against about 0.17 ms to sync
// the same bytes written over blocks that already hold data; on an ext4
// without a journal (the AMD machine) the inode's own write costs nearly
// as much, and 64 writers commit 1.2-1.7x faster with the zeros than
// without (probe 998). So once a
// file holds preallocFrom bytes, the commit that reaches the end of the
// written zeros first appends a chunk of zeros (one sync, its own, pays for
// the metadata), and the commits after it write over them.
//
// The zeros are not records: recovery stops at the first one (kind 0) and
// cuts them off like any torn tail, and a crash inside them leaves a torn
// tail of the usual kind. Bytes of a record are still written only once;
// the zeros they replace were never part of a record.
//
// The zeros are not free: every byte of them goes to the device once
// before the records that replace it go again, so the device writes each
// record's bytes twice, and the commit that appends a chunk waits for its
// sync. For small groups that is cheap beside a journal commit per sync;
// for large ones it is not (probe 939: 64 writers each rewriting a
// growing document, groups of half a megabyte, wrote 2.4 bytes per byte of
// the documents, and the same server without preallocation answered about
// 1.15x as many PUTs). So zeros are appended only while the groups'
// average size (groupAvg, decaying by an eighth per group) stays under
// preallocGroupMax.

const (
	// preallocFrom is the file size below which nothing is preallocated,
	// so that tiny stores stay exactly as long as their records. 64 KiB,
	// not more: with log records a small commit appends about a hundred
	// bytes, so a lone writer takes thousands of commits to pass 1 MiB,
	// and each of them paid the metadata sync (1 writer committed at about
	// 0.6 x the rate of tree commits, which reached 1 MiB within a few
	// hundred commits).
	preallocFrom = 64 << 10
	// preallocMin and preallocMax bound a chunk of zeros: a sixteenth of
	// the file, at least 256 KiB (thousands of small commits' records), but
	// at most 2 MiB, since the commit that writes a chunk waits for its
	// sync (with 8 MiB chunks the p99 commit latency of 64 writers
	// doubled, to about 8 ms).
	preallocMin = 256 << 10
	preallocMax = 2 << 20
	// preallocGroupMax is the average group size from which zeros are no
	// longer appended: about where writing a group's worth of zeros
	// (sequentially, about 1.2 GB/s on this project's VMs) costs what the
	// journal commit it saves does (0.13 ms), rounded down.
	preallocGroupMax = 128 << 10
)

// zeros is the source of preallocation writes.
var zeros [256 << 10]byte

// preallocLocked makes the file hold zeros (or records) up to at least
// end, appending a chunk of zeros when end is beyond them. The caller holds
// wmu and writes its records below end afterwards.
func (s *Store) preallocLocked(end uint64) error {
	if end > s.end {
		s.groupAvg += (int64(end-s.end) - s.groupAvg) / 8
	}
	if s.ram || s.opts.noPrealloc || end <= s.filled || end < preallocFrom || s.groupAvg >= preallocGroupMax {
		return nil
	}
	to := end + min(max(end/16, preallocMin), preallocMax)
	for p := max(s.filled, s.end); p < to; {
		n := min(to-p, uint64(len(zeros)))
		if err := s.writeAt(zeros[:n], p); err != nil {
			return err
		}
		p += n
	}
	s.filled = to
	return nil
}
