package store

import "bytes"

// recoverHead scans the records of d (the whole file) from the first and
// returns the last head whose own checksum and data checksum verify and
// that continues the chain (prev is the head before it, seq is one more),
// and the offset where that head ends. Anything after it is a torn tail
// and is ignored.
//
// A valid head found beyond the point where the scan stopped means the damage is
// not a torn tail (a commit synced after it), so recoverHead reports
// ErrCorrupt instead of letting the caller cut acknowledged commits off.
func recoverHead(d []byte) (head, uint64, error) {
	if err := checkFileHeader(d); err != nil {
		return head{}, 0, err
	}
	var last head
	size := uint64(len(d))
	pos, end := uint64(headerSize), uint64(headerSize)
scan:
	for size-pos >= recHdrSize {
		kind := d[pos]
		n := uint64(le.Uint32(d[pos+4:]))
		if n < recHdrSize || n > size-pos {
			break
		}
		switch kind {
		case kindLeaf, kindBranch, kindValue:
			pos += n
		case kindHead:
			h, ok := decodeHead(d, pos)
			if !ok || h.prev != last.off || (last.off != 0 && h.seq != last.seq+1) || !verifyHead(d, &h) {
				break scan
			}
			last = h
			pos += headSize
			end = pos
		default:
			break scan
		}
	}
	if end < size {
		if off, ok := findValidHead(d, end); ok {
			return head{}, 0, errorf(ErrCorrupt, "records at %d do not verify but a valid commit follows at %d", end, off)
		}
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
