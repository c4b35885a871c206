package store

import "fmt"

// Checkpoints. A version 2 file has two checkpoint slots, each in a 4 KiB
// page of its own between the file header and the records. A slot names a
// head whose sync has returned, so Open can start there and verify only
// the commits written after it (recover.go).
//
// Slot layout (slotSize bytes at slotOffset(i)):
//
//	0  magic "PURECKPT"
//	8  head offset u64
//	16 a copy of the head record (64 bytes)
//	80 CRC-32C of bytes 0..80
//
// Crash safety. A commit leader writes a slot only once the head it names
// has been synced (the previous group's head: a group is written only
// after that sync returned), together with its own group's records, so
// the slot costs no sync of its own: the group's sync makes it durable.
// The slots alternate, and the next slot write comes in a later group,
// written only after this group's sync returned; so at most one slot is
// ever unsynced, and the other holds a durable checkpoint. A crash can
// leave the slot being written old, new or torn: old and new name synced
// heads, and a torn slot fails its checksum, so Open uses the other one
// (or, with neither, scans from the first record as version 1 files do).

// defaultCheckpointEvery is how many bytes of records may follow the
// checkpointed head before a commit writes a new checkpoint: the most an
// Open after a crash verifies. A checkpoint dirties one more page in its
// group's sync, so it is not written for every commit.
const defaultCheckpointEvery = 4 << 20

// slotOffset is where slot i (0 or 1) lives in a version 2 file.
func slotOffset(i int) uint64 { return uint64(1+i) * pageSize }

// checkpoint is a decoded, checksum-verified slot.
type checkpoint struct {
	slot int // 0 or 1; -1: no valid slot
	h    head
}

func noCheckpoint() checkpoint { return checkpoint{slot: -1} }

// end is where the checkpointed head ends, or base without a checkpoint.
func (c checkpoint) end(base uint64) uint64 {
	if c.slot < 0 {
		return base
	}
	return c.h.off + headSize
}

// encodeSlot writes the slot naming h into b.
func encodeSlot(b *[slotSize]byte, h head) {
	copy(b[:8], slotMagic)
	le.PutUint64(b[8:], h.off)
	h.encode(b[16:80])
	le.PutUint32(b[80:], checksum(b[:80]))
}

// decodeSlot decodes slot i of d; ok is false when the slot is empty, torn
// or otherwise fails its checksum, or names a head outside the records.
func decodeSlot(d []byte, i int) (head, bool) {
	at := slotOffset(i)
	if uint64(len(d)) < at+slotSize {
		return head{}, false
	}
	b := d[at : at+slotSize]
	if string(b[:8]) != slotMagic || le.Uint32(b[80:]) != checksum(b[:80]) {
		return head{}, false
	}
	h, ok := decodeHead(b[16:80], 0)
	h.off = le.Uint64(b[8:])
	if !ok || h.off < dataStartV2 {
		return head{}, false
	}
	return h, true
}

// newestCheckpoint returns the valid slot naming the newest head of a
// version 2 file (base dataStartV2), or none.
func newestCheckpoint(d []byte, base uint64) checkpoint {
	c := noCheckpoint()
	if base != dataStartV2 {
		return c
	}
	for i := range 2 {
		if h, ok := decodeSlot(d, i); ok && (c.slot < 0 || h.seq > c.h.seq) {
			c = checkpoint{slot: i, h: h}
		}
	}
	return c
}

// checkpointDueLocked reports whether the next group should write a
// checkpoint of s.tip: checkpoints are on, there is a tip and enough
// records follow the last checkpoint. The group's head, and the slot with
// it, are written only after tip's sync returned (group.go).
func (s *Store) checkpointDueLocked() bool {
	return s.ckptEvery > 0 && s.tip.off != 0 && s.tip.off+headSize-s.ckpt.end(s.base) >= s.ckptEvery
}

// nextSlotLocked returns the slot the next checkpoint goes to: the one not
// holding the newest checkpoint.
func (s *Store) nextSlotLocked() int {
	if s.ckpt.slot == 0 {
		return 1
	}
	return 0
}

// writeCheckpointLocked writes a slot naming h, which must be synced, into
// the slot not holding the newest checkpoint. It does not sync: the
// caller's next sync makes it durable. The caller holds wmu.
func (s *Store) writeCheckpointLocked(h head) error {
	slot := s.nextSlotLocked()
	b := &s.ckptBuf
	encodeSlot(b, h)
	if err := s.writeAt(b[:], slotOffset(slot)); err != nil {
		return fmt.Errorf("checkpoint slot %d: %w", slot, err)
	}
	s.ckpt = checkpoint{slot: slot, h: h}
	return nil
}
