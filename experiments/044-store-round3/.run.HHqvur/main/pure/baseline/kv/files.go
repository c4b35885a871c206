package kv

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Names of the crashsafe mode's directories and file prefixes.
const (
	docsDir   = "docs"
	scoresDir = "scores"
	docPrefix = "d-"
	scorePfx  = "s-"
	tmpPrefix = ".tmp-"
)

// fileStore is the crashsafe mode's files: one per document, one per
// scoreboard name, each replaced whole by replace.
type fileStore struct {
	dir string

	closing sync.RWMutex // writers hold it shared; Close exclusively
	closed  bool         // guarded by closing

	mu    sync.Mutex // guards locks
	locks map[string]*sync.Mutex
}

// openFiles creates dir's subdirectories if needed, removes temporary
// files left by a crash, and passes every document and score to apply.
func openFiles(dir string, apply func(record)) (*fileStore, error) {
	fs := &fileStore{dir: dir, locks: map[string]*sync.Mutex{}}
	for _, sub := range []string{docsDir, scoresDir} {
		p := filepath.Join(dir, sub)
		if err := os.MkdirAll(p, 0o755); err != nil {
			return nil, fmt.Errorf("kv: data directory: %w", err)
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			return nil, fmt.Errorf("kv: read %s: %w", p, err)
		}
		for _, e := range ents {
			if err := fs.load(p, sub, e.Name(), apply); err != nil {
				return nil, err
			}
		}
		if err := syncDir(p); err != nil {
			return nil, err
		}
	}
	if err := syncDir(dir); err != nil {
		return nil, err
	}
	return fs, nil
}

// load reads one file of sub (docs or scores) at path dir/name.
func (fs *fileStore) load(dir, sub, name string, apply func(record)) error {
	path := filepath.Join(dir, name)
	if strings.HasPrefix(name, tmpPrefix) { // a write that was never answered
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("kv: remove leftover temporary file: %w", err)
		}
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("kv: %w", err)
	}
	bad := func(why string) error {
		return fmt.Errorf("kv: %s: %s (not written by this store? move it away)", path, why)
	}
	switch {
	case sub == docsDir && strings.HasPrefix(name, docPrefix):
		line, body, ok := bytes.Cut(b, []byte{'\n'})
		rev, err := strconv.ParseUint(string(line), 10, 64)
		if !ok || err != nil {
			return bad("no revision line")
		}
		apply(record{kind: kindDoc, key: name[len(docPrefix):], rev: rev, body: body})
	case sub == scoresDir && strings.HasPrefix(name, scorePfx):
		who, err := url.PathUnescape(name[len(scorePfx):])
		if err != nil {
			return bad("name is not path-escaped")
		}
		score, err := strconv.ParseInt(string(b), 10, 64)
		if err != nil {
			return bad("not a decimal score")
		}
		apply(record{kind: kindScoreSet, key: who, points: score})
	default:
		return bad("unexpected file")
	}
	return nil
}

// lockKey locks one key's turn to write and returns its unlock. It also
// holds off Close until the write is done.
func (fs *fileStore) lockKey(key string) (unlock func()) {
	fs.closing.RLock()
	fs.mu.Lock()
	m := fs.locks[key]
	if m == nil {
		m = new(sync.Mutex)
		fs.locks[key] = m
	}
	fs.mu.Unlock()
	m.Lock()
	return func() { m.Unlock(); fs.closing.RUnlock() }
}

func (fs *fileStore) writeDoc(key string, rev uint64, body []byte) error {
	data := make([]byte, 0, 21+len(body))
	data = strconv.AppendUint(data, rev, 10)
	data = append(data, '\n')
	data = append(data, body...)
	return fs.replace(filepath.Join(fs.dir, docsDir), docPrefix+key, data)
}

func (fs *fileStore) writeScore(name string, score int64) error {
	return fs.replace(filepath.Join(fs.dir, scoresDir), scorePfx+url.PathEscape(name), strconv.AppendInt(nil, score, 10))
}

// replace makes dir/name hold data, atomically and durably, in the
// textbook steps; a failure at any step leaves the old file in place.
func (fs *fileStore) replace(dir, name string, data []byte) error {
	if fs.closed {
		return ErrClosed
	}
	// 1. Write the new contents to a temporary file in the same directory
	//    (a rename is atomic only within one file system).
	tmp, err := os.CreateTemp(dir, tmpPrefix+"*")
	if err != nil {
		return fmt.Errorf("kv: create temporary file: %w", err)
	}
	fail := func(step string, err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("kv: replace %s: %s: %w", name, step, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail("write", err)
	}
	// 2. Sync its contents before it can take the target's name.
	if err := tmp.Sync(); err != nil {
		return fail("fsync", err)
	}
	if err := tmp.Close(); err != nil {
		return fail("close", err)
	}
	// 3. Rename over the target: readers of the file see old or new, whole.
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		return fail("rename", err)
	}
	// 4. Sync the directory, so the rename itself survives a crash.
	return syncDir(dir)
}

func (fs *fileStore) close() error {
	fs.closed = true // Close holds closing exclusively
	return nil
}
