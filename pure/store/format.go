package store

import (
	"encoding/binary"
	"hash/crc32"
)

// Limits on keys and values.
const (
	// MaxKeySize is the longest key, in bytes.
	MaxKeySize = 1024
	// MaxValueSize is the longest value, in bytes.
	MaxValueSize = 256 << 20
)

// On-disk layout constants. doc.go describes the format.
const (
	fileMagic     = "PURETREE"
	formatVersion = 4  // files this package writes: version 3 with heads over log records counting their tree's keys
	formatV3      = 3  // log records, heads counting every key of their version: read and appended to as such
	formatV2      = 2  // checkpoint slots, records at dataStartV2, no log records: read and appended to as trees
	formatV1      = 1  // files written before checkpoints: records at headerSize, read and appended to
	headerSize    = 64 // the file header's own length
	recHdrSize    = 8  // kind u8, flags u8, count u16, len u32
	headSize      = 64 // a head record is always this long
	headMagic     = "PUREHEAD"
	headVersion   = 1 // byte 1 of a head record; heads are alike in both file versions

	// Version 2 files: the file header alone in the first 4 KiB page, then
	// one page per checkpoint slot, then the records. Each slot has a page
	// of its own, so a torn write of one cannot touch the header or the
	// other slot.
	pageSize    = 4096
	slotSize    = 84 // magic, head offset, a copy of the head, CRC
	slotMagic   = "PURECKPT"
	dataStartV2 = 3 * pageSize

	kindLeaf   = 'L'
	kindBranch = 'B'
	kindValue  = 'V'
	kindHead   = 'H'
	kindLog    = 'D' // a log record: puts and deletes not yet folded into the tree (version 3)

	leafEntFixed    = 16 // rev u64, valLen u32, keyLen u16, flags u8, pad u8
	leafFlagOutline = 1  // value lives in its own value record
	branchEntFixed  = 10 // child u64, keyLen u16

	// maxInline is the longest value stored inside its leaf; longer values
	// get a value record of their own, so rewriting the leaf does not copy
	// them.
	maxInline = 1024
	// defaultNodeSize is the size a node is split at. A commit rewrites
	// every node on the path of each key it changes, so this sets the bytes
	// written (and synced) per small commit; readers do not depend on it.
	// 2 KiB instead of 4 KiB: 64 writers committed 12-20 % more per second
	// (smaller writes and syncs per group), point reads were no slower.
	defaultNodeSize = 2048
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

var le = binary.LittleEndian

// encodeFileHeader returns the 64-byte file header of a file of this
// package's version made made bytes long:
//
//	0  magic "PURETREE"
//	8  format version u32 (4; 3, 2 and 1 for older files)
//	12 data start u32: where the first record begins (12288; 64 in version 1)
//	16 made u64: the file's length when it was made, by Create (its data
//	   start) or by a compaction (the compacted file's length); 0 in files
//	   written before it was recorded (readers ignore it)
//	24 reserved, zero
//	60 CRC-32C of bytes 0..60
func encodeFileHeader(made uint64) []byte {
	return encodeFileHeaderV(formatVersion, made)
}

func encodeFileHeaderV(version uint32, made uint64) []byte {
	b := make([]byte, headerSize)
	copy(b, fileMagic)
	le.PutUint32(b[8:], version)
	le.PutUint32(b[12:], uint32(dataStartOf(version)))
	le.PutUint64(b[16:], made)
	le.PutUint32(b[60:], checksum(b[:60]))
	return b
}

// fileMade returns the length the file whose verified header starts b had
// when it was made, or 0 where its header does not say.
func fileMade(b []byte) uint64 { return le.Uint64(b[16:]) }

func dataStartOf(version uint32) uint64 {
	if version == formatV1 {
		return headerSize
	}
	return dataStartV2
}

// newFileImage returns the bytes of an empty file of the given version:
// the header and, in version 2, two empty checkpoint slots.
func newFileImage(version uint32) []byte {
	b := make([]byte, dataStartOf(version))
	copy(b, encodeFileHeaderV(version, dataStartOf(version)))
	return b
}

// checkFileHeader verifies the header at the start of b (the whole file,
// or at least its first dataStart bytes) and returns where records begin.
func checkFileHeader(b []byte) (uint64, error) {
	if len(b) < headerSize || string(b[:8]) != fileMagic {
		return 0, ErrNotStore
	}
	if le.Uint32(b[60:]) != checksum(b[:60]) {
		return 0, errorf(ErrCorrupt, "file header checksum mismatch")
	}
	v := le.Uint32(b[8:])
	if v < formatV1 || v > formatVersion {
		return 0, errorf(ErrVersion, "file has version %d, this package reads %d to %d", v, formatV1, formatVersion)
	}
	start := dataStartOf(v)
	if uint64(le.Uint32(b[12:])) != start {
		return 0, errorf(ErrCorrupt, "file header: data start %d, version %d has %d", le.Uint32(b[12:]), v, start)
	}
	if uint64(len(b)) < start {
		return 0, errorf(ErrCorrupt, "file ends at %d, inside its %d-byte header", len(b), start)
	}
	return start, nil
}

// dataStart returns where the records of the mapped file d begin; its
// header was verified when the file was opened.
func dataStart(d []byte) uint64 { return uint64(le.Uint32(d[12:])) }

// fileVersion returns the format version of the mapped file d.
func fileVersion(d []byte) uint32 { return le.Uint32(d[8:]) }

// headCountsTree reports whether the heads of a file of this version
// count the keys of their tree alone, not those their log records add or
// delete (version 4). The fold knows the tree's count exactly (it inserts
// or replaces each key), so a commit that only appends a log record need
// not look its keys up in the tree to keep a head's count; Snapshot.Len
// adds the records' part when it is asked (overlay.keyCount). In version 3
// every head counts the version's keys, so each commit looked up each key
// it writes that the group and the overlay did not hold.
func headCountsTree(version uint32) bool { return version >= formatVersion }

// head is a decoded head record: one published version of the tree.
//
// Layout (64 bytes):
//
//	0  kind 'H', 1 head version (1), 2 reserved u16, 4 len u32 (64)
//	8  magic "PUREHEAD"
//	16 seq u64     commit sequence number, +1 per head
//	24 rev u64     highest revision assigned so far
//	32 root u64    offset of the root node, 0 for an empty tree
//	40 prev u64    offset of the previous head, 0 for the first in the file
//	48 count u64   number of keys: of the tree below its log records in a
//	               version 4 file (headCountsTree), of the version in older
//	               ones (the same number when root is a tree)
//	56 dataCRC u32 CRC-32C of the bytes between the previous head's end
//	               (or the file header) and this head: every record new in it
//	60 headCRC u32 CRC-32C of bytes 0..60
type head struct {
	off     uint64 // where the record sits; not stored in it
	seq     uint64
	rev     uint64
	root    uint64
	prev    uint64
	count   uint64
	dataCRC uint32
}

// regionStart is where the records this head covers begin; base is where
// the file's records begin.
func (h *head) regionStart(base uint64) uint64 {
	if h.prev == 0 {
		return base
	}
	return h.prev + headSize
}

func (h *head) encode(b []byte) {
	_ = b[headSize-1]
	b[0] = kindHead
	b[1] = headVersion
	le.PutUint16(b[2:], 0)
	le.PutUint32(b[4:], headSize)
	copy(b[8:16], headMagic)
	le.PutUint64(b[16:], h.seq)
	le.PutUint64(b[24:], h.rev)
	le.PutUint64(b[32:], h.root)
	le.PutUint64(b[40:], h.prev)
	le.PutUint64(b[48:], h.count)
	le.PutUint32(b[56:], h.dataCRC)
	le.PutUint32(b[60:], checksum(b[:60]))
}

// decodeHead decodes and verifies the head record at off in d (its own
// checksum only; the data checksum needs the region, see verifyHead).
func decodeHead(d []byte, off uint64) (head, bool) {
	if off > uint64(len(d)) || uint64(len(d))-off < headSize {
		return head{}, false
	}
	b := d[off : off+headSize]
	if b[0] != kindHead || b[1] != headVersion || le.Uint32(b[4:]) != headSize ||
		string(b[8:16]) != headMagic || le.Uint32(b[60:]) != checksum(b[:60]) {
		return head{}, false
	}
	return head{
		off:     off,
		seq:     le.Uint64(b[16:]),
		rev:     le.Uint64(b[24:]),
		root:    le.Uint64(b[32:]),
		prev:    le.Uint64(b[40:]),
		count:   le.Uint64(b[48:]),
		dataCRC: le.Uint32(b[56:]),
	}, true
}

// verifyHead checks the data checksum of h against the region it covers.
func verifyHead(d []byte, h *head) bool {
	start := h.regionStart(dataStart(d))
	return start <= h.off && h.off <= uint64(len(d)) && checksum(d[start:h.off]) == h.dataCRC
}

// putRecHdr writes a record header.
func putRecHdr(b []byte, kind byte, count int, length int) {
	b[0] = kind
	b[1] = 0
	le.PutUint16(b[2:], uint16(count))
	le.PutUint32(b[4:], uint32(length))
}
