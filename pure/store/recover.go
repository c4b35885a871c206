package store

import "bytes"

// recovered is what opening learned from a file: its last valid head, where
// that head ends, where records begin, and the newest valid checkpoint.
type recovered struct {
	h    head
	end  uint64
	base uint64
	ckpt checkpoint
	ov   *overlay // h's log records over its tree, or nil
}

// recoverHead finds the last head of d (the whole file) whose own checksum
// and data checksum verify and that continues the chain (prev is the head
// before it, seq is one more), and the offset where that head ends.
// Anything after it is a torn tail and is ignored.
//
// It starts from the newest valid checkpoint (checkpoint.go) unless full is
// set or there is none: the checkpointed head must then read back exactly
// as the slot copied it (its own checksum is verified, its data checksum
// and everything before it are not), and only the records after it are
// scanned. With full set, or without a checkpoint, it scans from the first
// record; a valid checkpoint must then name a head of the verified chain.
//
// A valid head found beyond the point where the scan stopped means the
// damage is not a torn tail (a commit synced after it), so recoverHead
// reports ErrCorrupt instead of letting the caller cut acknowledged
// commits off. So does a checkpoint naming a head that does not verify:
// it was written only after that head was synced.
func recoverHead(d []byte, full bool) (recovered, error) {
	base, err := checkFileHeader(d)
	if err != nil {
		return recovered{}, err
	}
	r := recovered{base: base, end: base, ckpt: newestCheckpoint(d, base)}
	pos := base
	if c := r.ckpt; c.slot >= 0 {
		if got, ok := decodeHead(d, c.h.off); !ok || got != c.h {
			return recovered{}, errorf(ErrCorrupt, "checkpoint slot %d names a head at %d (seq %d) that does not read back as written", c.slot, c.h.off, c.h.seq)
		}
		if !full {
			r.h, r.end = c.h, c.h.off+headSize
			pos = r.end
		}
	}
	r.h, r.end, err = scanHeads(d, r.h, pos, r.ckpt)
	if err != nil {
		return recovered{}, err
	}
	if c := r.ckpt; c.slot >= 0 && r.h.seq < c.h.seq {
		return recovered{}, errorf(ErrCorrupt, "records stop verifying at %d (seq %d) before the checkpointed head at %d (seq %d)", r.end, r.h.seq, c.h.off, c.h.seq)
	}
	if r.end < uint64(len(d)) {
		if off, ok := findValidHead(d, r.end); ok {
			return recovered{}, errorf(ErrCorrupt, "records at %d do not verify but a valid commit follows at %d", r.end, off)
		}
	}
	// The log records over the tree, replayed into the overlay readers
	// see them through (logrec.go).
	if r.ov, err = buildOverlay(d, r.h.root, r.h.count); err != nil {
		return recovered{}, err
	}
	return r, nil
}

// scanHeads walks the records from pos, after the head last (zero: none),
// and returns the last head that continues the chain and where it ends. A
// head with the checkpoint's seq must be the checkpointed head.
func scanHeads(d []byte, last head, pos uint64, c checkpoint) (head, uint64, error) {
	size, end := uint64(len(d)), pos
	for size-pos >= recHdrSize {
		kind := d[pos]
		n := uint64(le.Uint32(d[pos+4:]))
		if n < recHdrSize || n > size-pos {
			break
		}
		if kind == kindLeaf || kind == kindBranch || kind == kindValue || kind == kindLog {
			pos += n
			continue
		}
		if kind != kindHead {
			break
		}
		h, ok := decodeHead(d, pos)
		if !ok || h.prev != last.off || (last.off != 0 && h.seq != last.seq+1) || !verifyHead(d, &h) {
			break
		}
		if c.slot >= 0 && h.seq == c.h.seq && h != c.h {
			return head{}, 0, errorf(ErrCorrupt, "head at %d has seq %d, but checkpoint slot %d names the head at %d", h.off, h.seq, c.slot, c.h.off)
		}
		last = h
		pos += headSize
		end = pos
	}
	return last, end, nil
}

// findValidHead looks for a head record after from whose checksums verify.
func findValidHead(d []byte, from uint64) (uint64, bool) {
	for p := from; p < uint64(len(d)); {
		i := bytes.Index(d[p:], []byte(headMagic))
		if i < 0 {
			return 0, false
		}
		at := p + uint64(i)
		if at >= from+8 {
			if h, ok := decodeHead(d, at-8); ok && h.prev >= from && verifyHead(d, &h) {
				return at - 8, true
			}
		}
		p = at + 1
	}
	return 0, false
}
