package store

import "fmt"

// Preallocation. A sync after an append also commits the file system's
// metadata (the new length, newly allocated blocks): on ext4 a journal
// commit, about 0.3 ms on the VMs measured, against about 0.17 ms to sync
// the same bytes written over blocks that already hold data. So once a
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
// end, appending a chunk of zeros when end is beyond them, and starts the
// next chunk ahead of need in the background (zeroAhead) once end has
// passed half of the zeros left. The caller holds wmu and writes its
// records below end afterwards.
func (s *Store) preallocLocked(end uint64) error {
	z := &s.za
	if z.busy() {
		// The background chunk starts at z.from: no record may be
		// written there before its zeros are, whatever is decided below.
		if end > z.from {
			s.zerosDoneLocked(<-z.done)
		} else {
			select {
			case err := <-z.done:
				s.zerosDoneLocked(err)
			default:
			}
		}
	}
	if end > s.end {
		s.groupAvg += (int64(end-s.end) - s.groupAvg) / 8
	}
	if s.ram || s.opts.noPrealloc || end < preallocFrom || s.groupAvg >= preallocGroupMax {
		return nil
	}
	if end > s.filled {
		// In the commit's path: the first chunk, a group larger than
		// what was zeroed ahead, or the background failed or unavailable.
		to := end + preallocChunk(end)
		for p := max(s.filled, s.end); p < to; {
			n := min(to-p, uint64(len(zeros)))
			if err := s.writeAt(zeros[:n], p); err != nil {
				if z.err != nil {
					err = fmt.Errorf("%w (zeros ahead failed before: %w)", err, z.err)
				}
				return err
			}
			p += n
		}
		s.filled = to
		s.zerosInPath.Add(1)
	}
	if !z.busy() && s.filled-end < preallocChunk(end)/2 {
		s.startZerosLocked()
	}
	return nil
}

// preallocChunk is the size of the chunk of zeros appended once the
// records reach end: a sixteenth of the file, within preallocMin and
// preallocMax.
func preallocChunk(end uint64) uint64 { return min(max(end/16, preallocMin), preallocMax) }

// Zeros ahead. Appended in the commit's path, a chunk of zeros is paid by
// the commit that appends it: its fdatasync writes 2 MiB of zeros and the
// file's new length (about 1.3 ms at 64 writers against 55 µs for a plain
// group's sync, 6 % of the wall time in experiment 112's probe). So once
// the commits have passed half of the zeros left, the leader hands the
// next chunk, from where the zeros end, to a goroutine that writes it and
// syncs it through a second descriptor of the file (zeroAhead), while
// commits go on writing records below it; the commit that reaches the
// chunk before it is done waits for it, never writes past it.
//
// The second descriptor is an open file description of its own: Linux
// reports a writeback error once to each description (errseq), so an
// error the background's fdatasync reports is still reported to the
// commits' own fdatasync, which therefore never acknowledges a commit
// over zeros that did not reach the device. The zeros are made durable
// by their own sync (aheadFile flushes each piece as it goes, so they are
// not dirty in the page cache, where any commit's fdatasync, which
// flushes the whole file, would pay for them). If the background fails
// (a write or its sync), its chunk counts as not written: the commit that
// reaches it writes the zeros in its own path, as without the background,
// and from then on every chunk is written so for this file; if that
// in-path write fails too, the commit fails with both errors.
//
// Recovery is unchanged: zeros are kind 0, a torn tail, whoever wrote
// them; a crash during a background chunk leaves zeros or nothing past
// the last records. Close and a compaction's swap wait for the chunk in
// flight and close the descriptor (stopZerosLocked). Only a file opened
// by this package (not one wrapped by Options.WrapFile, unless the
// wrapper is an aheadOpener) gets a second descriptor.

// aheadOpener is a File that can open a second descriptor of itself for
// the background's zeros. osFile is one.
type aheadOpener interface {
	// openAhead opens the same file again, as an open file description
	// of its own.
	openAhead() (File, error)
}

// zeroAhead is the background writer of zeros, guarded by wmu (its
// goroutine owns f while busy and reports on done).
type zeroAhead struct {
	f        File       // the second descriptor, opened at first use
	from, to uint64     // the chunk in flight; to == 0: none
	done     chan error // the goroutine's result
	off      bool       // failed or unavailable: in the commit's path until the next file
	err      error      // why it is off
}

func (z *zeroAhead) busy() bool { return z.to != 0 }

// startZerosLocked starts the chunk after the zeros in the background,
// opening the second descriptor first if needed.
func (s *Store) startZerosLocked() {
	z := &s.za
	if z.off {
		return
	}
	if z.f == nil {
		o, ok := s.f.(aheadOpener)
		if !ok {
			z.off = true
			return
		}
		f, err := o.openAhead()
		if err != nil {
			z.off, z.err = true, err
			return
		}
		z.f = f
	}
	if z.done == nil {
		z.done = make(chan error, 1)
	}
	z.from = s.filled
	z.to = z.from + preallocChunk(z.from)
	go writeZeros(z.f, z.from, z.to, z.done)
}

// writeZeros writes zeros over [from, to) in f and syncs them.
func writeZeros(f File, from, to uint64, done chan<- error) {
	for p := from; p < to; {
		n := min(to-p, uint64(len(zeros)))
		if err := writeFull(f, zeros[:n], p); err != nil {
			done <- err
			return
		}
		p += n
	}
	done <- f.Sync()
}

// zerosDoneLocked takes the background's result: its chunk is filled, or
// the background is off for this file.
func (s *Store) zerosDoneLocked(err error) {
	z := &s.za
	if err == nil {
		s.filled = max(s.filled, z.to)
		s.zerosAhead.Add(1)
	} else {
		z.off, z.err = true, fmt.Errorf("zeros ahead at %d: %w", z.from, err)
		z.f.Close()
		z.f = nil
	}
	z.from, z.to = 0, 0
}

// stopZerosLocked waits for the chunk in flight and closes the second
// descriptor: the store's file is about to be closed or replaced. The
// next file starts with the background on.
func (s *Store) stopZerosLocked() {
	z := &s.za
	if z.busy() {
		s.zerosDoneLocked(<-z.done)
	}
	if z.f != nil {
		z.f.Close()
	}
	*z = zeroAhead{done: z.done}
}
