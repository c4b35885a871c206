package kv

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/sys/unix"
)

// LogName is the fdatasync mode's log file in the data directory.
const LogName = "kv.log"

// record kinds, the first byte of a payload.
const (
	kindDoc      = 'D' // a document at a revision
	kindScore    = 'S' // points added to a name (log)
	kindScoreSet = 'T' // a name's whole score (crashsafe files, never logged)
)

type record struct {
	kind   byte
	key    string
	rev    uint64
	body   []byte
	points int64
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// appendLog is the fdatasync mode's log. mu is held by a writer from its
// revision check until its record is synced and applied.
type appendLog struct {
	mu   sync.Mutex
	f    *os.File
	path string
	buf  []byte
}

// openLog opens (creating it if needed) dir's log, passes every whole
// record to apply, and cuts off a torn tail.
func openLog(dir string, apply func(record)) (*appendLog, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("kv: data directory: %w", err)
	}
	path := filepath.Join(dir, LogName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("kv: open log: %w", err)
	}
	end, err := replay(f, apply)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("kv: replay %s: %w", path, err)
	}
	// Whatever follows the last whole record was never synced and answered.
	if err := f.Truncate(end); err != nil {
		f.Close()
		return nil, fmt.Errorf("kv: cut torn tail of %s at %d: %w", path, end, err)
	}
	if _, err := f.Seek(end, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("kv: %s: %w", path, err)
	}
	if err := syncDir(dir); err != nil { // the log's creation is durable
		f.Close()
		return nil, err
	}
	return &appendLog{f: f, path: path}, nil
}

// replay reads records from the start of f and returns the offset after
// the last whole one.
func replay(f *os.File, apply func(record)) (int64, error) {
	r := bufio.NewReaderSize(f, 1<<16)
	var end int64
	var head [8]byte
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return end, nil // clean end or torn header
		}
		n := binary.LittleEndian.Uint32(head[0:4])
		sum := binary.LittleEndian.Uint32(head[4:8])
		if n > 1<<30 {
			return end, nil // a torn header's garbage length
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(r, payload); err != nil {
			return end, nil
		}
		if crc32.Checksum(payload, castagnoli) != sum {
			return end, nil
		}
		rec, err := decode(payload)
		if err != nil {
			return 0, fmt.Errorf("record at offset %d: %w (the log is damaged; move it away to start empty)", end, err)
		}
		apply(rec)
		end += 8 + int64(n)
	}
}

// append writes rec at the end of the log and syncs it; l.mu is held.
func (l *appendLog) append(rec record) error {
	b := l.buf[:0]
	b = append(b, 0, 0, 0, 0, 0, 0, 0, 0, rec.kind)
	b = binary.AppendUvarint(b, uint64(len(rec.key)))
	b = append(b, rec.key...)
	switch rec.kind {
	case kindDoc:
		b = binary.AppendUvarint(b, rec.rev)
		b = binary.AppendUvarint(b, uint64(len(rec.body)))
		b = append(b, rec.body...)
	case kindScore:
		b = binary.AppendVarint(b, rec.points)
	}
	payload := b[8:]
	binary.LittleEndian.PutUint32(b[0:4], uint32(len(payload)))
	binary.LittleEndian.PutUint32(b[4:8], crc32.Checksum(payload, castagnoli))
	if cap(b) <= 1<<20 {
		l.buf = b
	}
	if l.f == nil {
		return ErrClosed
	}
	if _, err := l.f.Write(b); err != nil {
		return fmt.Errorf("kv: append to %s: %w", l.path, err)
	}
	if err := fdatasync(l.f); err != nil {
		return fmt.Errorf("kv: fdatasync %s: %w", l.path, err)
	}
	return nil
}

func (l *appendLog) close() error {
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

var errShort = errors.New("record shorter than its fields")

func decode(p []byte) (record, error) {
	if len(p) < 1 {
		return record{}, errShort
	}
	rec := record{kind: p[0]}
	p = p[1:]
	klen, n := binary.Uvarint(p)
	if n <= 0 || uint64(len(p)-n) < klen {
		return record{}, errShort
	}
	rec.key = string(p[n : n+int(klen)])
	p = p[n+int(klen):]
	switch rec.kind {
	case kindDoc:
		rev, n := binary.Uvarint(p)
		if n <= 0 {
			return record{}, errShort
		}
		p = p[n:]
		blen, n := binary.Uvarint(p)
		if n <= 0 || uint64(len(p)-n) != blen {
			return record{}, errShort
		}
		rec.rev = rev
		rec.body = p[n:]
	case kindScore:
		pts, n := binary.Varint(p)
		if n <= 0 || n != len(p) {
			return record{}, errShort
		}
		rec.points = pts
	default:
		return record{}, fmt.Errorf("unknown record kind %q", rec.kind)
	}
	return rec, nil
}

func fdatasync(f *os.File) error {
	for {
		err := unix.Fdatasync(int(f.Fd()))
		if err != unix.EINTR {
			return err
		}
	}
}

// syncDir makes the directory's entries (creations, renames) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("kv: open directory to sync: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("kv: fsync directory %s: %w", dir, err)
	}
	return nil
}
