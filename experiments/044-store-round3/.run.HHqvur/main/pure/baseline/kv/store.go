package kv

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
)

// Mode is how a Store keeps its data: Memory, Fdatasync or Crashsafe.
type Mode string

// The modes; see the package documentation.
const (
	Memory    Mode = "memory"
	Fdatasync Mode = "fdatasync"
	Crashsafe Mode = "crashsafe"
)

// Modes lists every mode, in the order the harness runs them.
func Modes() []Mode { return []Mode{Memory, Fdatasync, Crashsafe} }

// ParseMode returns the mode named s.
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes() {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown mode %q: use memory, fdatasync or crashsafe", s)
}

// Durable reports whether the mode keeps its data in files.
func (m Mode) Durable() bool { return m != Memory }

// Row is one line of the scoreboard's leaders table.
type Row struct {
	Name  string `json:"name"`
	Score int64  `json:"score"`
}

type doc struct {
	body []byte // never modified once stored: readers may keep it
	rev  uint64
}

// Store holds the documents and the scores. It is safe for concurrent use
// by any number of goroutines. A body returned by Get is shared and must
// not be modified; it stays valid (and unchanged) after later Puts.
type Store struct {
	mode Mode
	dir  string

	mu     sync.RWMutex // guards docs, scores, total, closed
	docs   map[string]doc
	scores map[string]int64
	total  int64
	closed bool

	log   *appendLog // Fdatasync only
	files *fileStore // Crashsafe only
}

// Open opens a store in mode. dir is ignored in Memory mode; in the
// durable modes it is created if missing and its data is loaded.
func Open(mode Mode, dir string) (*Store, error) {
	s := &Store{mode: mode, dir: dir, docs: map[string]doc{}, scores: map[string]int64{}}
	switch mode {
	case Memory:
		return s, nil
	case Fdatasync, Crashsafe:
		if dir == "" {
			return nil, fmt.Errorf("kv: mode %s needs a data directory: pass --data DIR", mode)
		}
	default:
		return nil, fmt.Errorf("kv: unknown mode %q: use memory, fdatasync or crashsafe", mode)
	}
	var err error
	if mode == Fdatasync {
		s.log, err = openLog(dir, s.apply)
	} else {
		s.files, err = openFiles(dir, s.apply)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// apply applies one loaded record: a document at rev, or points added to
// a name (setScore false) or a name's score as a whole (setScore true).
// Only Open calls it, before the store is shared.
func (s *Store) apply(r record) {
	switch r.kind {
	case kindDoc:
		s.docs[r.key] = doc{body: r.body, rev: r.rev}
	case kindScore:
		s.scores[r.key] += r.points
		s.total += r.points
	case kindScoreSet:
		s.total += r.points - s.scores[r.key]
		s.scores[r.key] = r.points
	}
}

// Mode returns the store's mode.
func (s *Store) Mode() Mode { return s.mode }

// Get returns the document's body and revision; ok is false if there is
// no such document. The body must not be modified.
func (s *Store) Get(key string) (body []byte, rev uint64, ok bool) {
	s.mu.RLock()
	d, ok := s.docs[key]
	s.mu.RUnlock()
	return d.body, d.rev, ok
}

// Put stores a copy of body as the document key and returns its new
// revision. With check, the document's current revision must be ifMatch
// (a *StaleError otherwise, or ErrNotFound if the document does not exist).
// In the durable modes Put returns only after the write is synced.
func (s *Store) Put(key string, body []byte, ifMatch uint64, check bool) (uint64, error) {
	body = slices.Clone(body)
	if body == nil {
		body = []byte{}
	}
	switch s.mode {
	case Fdatasync:
		s.log.mu.Lock() // writes take turns on the log; readers go on
		defer s.log.mu.Unlock()
	case Crashsafe:
		unlock := s.files.lockKey("d" + key)
		defer unlock()
	default:
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.putLocked(key, body, ifMatch, check)
	}
	// Writers of this key take turns, so its revision cannot move between
	// this check and the update below.
	s.mu.RLock()
	cur, exists := s.docs[key]
	closed := s.closed
	s.mu.RUnlock()
	if closed {
		return 0, ErrClosed
	}
	rev, err := nextRev(key, cur.rev, exists, ifMatch, check)
	if err != nil {
		return 0, err
	}
	if s.mode == Fdatasync {
		err = s.log.append(record{kind: kindDoc, key: key, rev: rev, body: body})
	} else {
		err = s.files.writeDoc(key, rev, body)
	}
	if err != nil {
		return 0, err
	}
	s.mu.Lock()
	s.docs[key] = doc{body: body, rev: rev}
	s.mu.Unlock()
	return rev, nil
}

// putLocked is Put in Memory mode; s.mu is held.
func (s *Store) putLocked(key string, body []byte, ifMatch uint64, check bool) (uint64, error) {
	if s.closed {
		return 0, ErrClosed
	}
	cur, exists := s.docs[key]
	rev, err := nextRev(key, cur.rev, exists, ifMatch, check)
	if err != nil {
		return 0, err
	}
	s.docs[key] = doc{body: body, rev: rev}
	return rev, nil
}

// nextRev checks If-Match against the current revision and returns the
// next one.
func nextRev(key string, cur uint64, exists bool, ifMatch uint64, check bool) (uint64, error) {
	if check {
		if !exists {
			return 0, ErrNotFound
		}
		if cur != ifMatch {
			return 0, &StaleError{Key: key, Have: cur, Want: ifMatch}
		}
	}
	return cur + 1, nil
}

// AddScore adds points to name's score and returns the new score. In the
// durable modes it returns only after the write is synced.
func (s *Store) AddScore(name string, points int64) (int64, error) {
	switch s.mode {
	case Fdatasync:
		s.log.mu.Lock()
		defer s.log.mu.Unlock()
	case Crashsafe:
		unlock := s.files.lockKey("s" + name)
		defer unlock()
	default:
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.closed {
			return 0, ErrClosed
		}
		s.scores[name] += points
		s.total += points
		return s.scores[name], nil
	}
	s.mu.RLock()
	score := s.scores[name] + points
	closed := s.closed
	s.mu.RUnlock()
	if closed {
		return 0, ErrClosed
	}
	var err error
	if s.mode == Fdatasync {
		err = s.log.append(record{kind: kindScore, key: name, points: points})
	} else {
		err = s.files.writeScore(name, score)
	}
	if err != nil {
		return 0, err
	}
	s.mu.Lock()
	s.scores[name] = score
	s.total += points
	s.mu.Unlock()
	return score, nil
}

// Total returns the sum of all scores.
func (s *Store) Total() int64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.total
}

// Names returns the number of names on the scoreboard.
func (s *Store) Names() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.scores)
}

// Leaders returns at most count rows of the scoreboard in name order,
// starting at the from-th name (0-based). It sorts every name on each call,
// as a hand-written handler over a map does.
func (s *Store) Leaders(from, count int) []Row {
	s.mu.RLock()
	names := make([]string, 0, len(s.scores))
	for n := range s.scores {
		names = append(names, n)
	}
	slices.Sort(names)
	rows := []Row{}
	for i := from; i < len(names) && len(rows) < count; i++ {
		rows = append(rows, Row{Name: names[i], Score: s.scores[names[i]]})
	}
	s.mu.RUnlock()
	return rows
}

// Close closes the store's files; writes after Close fail with ErrClosed.
// It waits for writes in progress.
func (s *Store) Close() error {
	switch s.mode {
	case Fdatasync:
		s.log.mu.Lock()
		defer s.log.mu.Unlock()
	case Crashsafe:
		s.files.closing.Lock()
		defer s.files.closing.Unlock()
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	switch s.mode {
	case Fdatasync:
		return s.log.close()
	case Crashsafe:
		return s.files.close()
	}
	return nil
}

func uitoa(v uint64) string { return strconv.FormatUint(v, 10) }
