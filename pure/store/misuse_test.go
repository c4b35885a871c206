package store

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// refs returns the reference count of the store's current mapping.
func refs(s *Store) int64 { return s.cur.Load().m.refs.Load() }

// checkFreshPairs takes and releases unrelated snapshots and borrowed
// values, interleaved, and checks each reads its own version and that the
// mapping's references come back to where they were.
func checkFreshPairs(t *testing.T, s *Store) {
	t.Helper()
	before := refs(s)
	for i := range 50 {
		a, err := s.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := s.Snapshot()
		if a == b {
			t.Fatal("two live snapshots share one object")
		}
		bo, ok, err := s.Borrow([]byte("a"))
		if err != nil || !ok {
			t.Fatalf("borrow: %v %v", ok, err)
		}
		a.Release()
		if v, _, ok := b.Get([]byte("a")); !ok || string(v) != "1" {
			t.Fatalf("pair %d: snapshot unreadable after an unrelated release", i)
		}
		b.Release()
		if string(bo.Bytes()) != "1" {
			t.Fatalf("pair %d: borrowed value changed", i)
		}
		bo.Release()
	}
	if got := refs(s); got != before {
		t.Fatalf("mapping references %d after balanced pairs, want %d", got, before)
	}
}

// closeAndReopen closes s and opens its file again in this process.
func closeAndReopen(t *testing.T, s *Store) {
	t.Helper()
	path := s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path, &Options{Strict: true})
	if err != nil {
		t.Fatalf("reopen after Close: %v", err)
	}
	if v, _, _ := get(t, s2, "a"); v != "1" {
		t.Fatalf("reopened store reads a=%q", v)
	}
	s2.Close()
}

func TestSnapshot_DoubleRelease_IsNoOp(t *testing.T) {
	s := mustOpen(t, tempPath(t), nil)
	put(t, s, "a", "1")
	base := refs(s)
	sn, _ := s.Snapshot()
	other, _ := s.Snapshot()
	sn.Release()
	sn.Release()
	sn.Release()
	if got := refs(s); got != base+1 {
		t.Fatalf("references %d after a triple release, want %d (base and the other snapshot)", got, base+1)
	}
	if v, _, ok := other.Get([]byte("a")); !ok || string(v) != "1" {
		t.Fatal("another snapshot was damaged by a double release")
	}
	other.Release()
	checkFreshPairs(t, s)
	closeAndReopen(t, s)
}

func TestBorrowed_DoubleRelease_IsNoOp(t *testing.T) {
	s := mustOpen(t, tempPath(t), nil)
	put(t, s, "a", "1")
	base := refs(s)
	b1, _, _ := s.Borrow([]byte("a"))
	sn, _ := s.Snapshot()
	b2, _ := sn.Borrow([]byte("a"))
	sn.Release()
	for range 3 {
		b1.Release()
		b2.Release()
	}
	if b1.Bytes() != nil || b1.Rev() != 0 {
		t.Fatal("a released Borrowed still hands out its bytes")
	}
	if got := refs(s); got != base {
		t.Fatalf("references %d after double releases, want %d", got, base)
	}
	checkFreshPairs(t, s)
	closeAndReopen(t, s)
}

func TestTx_SnapshotRelease_IsNoOp(t *testing.T) {
	s := mustOpen(t, tempPath(t), nil)
	put(t, s, "a", "1")
	base := refs(s)
	tx, _ := s.Begin()
	tx.Snapshot().Release()
	tx.Snapshot().Release()
	if v, _, ok := tx.Snapshot().Get([]byte("a")); !ok || string(v) != "1" {
		t.Fatal("a transaction's snapshot became unreadable after the user released it")
	}
	if v, _, ok := tx.Get([]byte("a")); !ok || string(v) != "1" {
		t.Fatal("Tx.Get failed after the user released the transaction's snapshot")
	}
	tx.Put([]byte("b"), []byte("2"), Any)
	if _, err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	tx.Snapshot().Release() // after the end too
	if got := refs(s); got != base {
		t.Fatalf("references %d after the transaction, want %d", got, base)
	}
	tx2, _ := s.Begin()
	tx2.Snapshot().Release()
	if err := tx2.Rollback(); err != nil {
		t.Fatal(err)
	}
	if got := refs(s); got != base {
		t.Fatalf("references %d after a rollback, want %d", got, base)
	}
	checkFreshPairs(t, s)
	closeAndReopen(t, s)
}

// TestTx_StaleHandle_Contained: a transaction's state is recycled when it
// ends, so the next Begin may get the same state; the ended handle must
// neither write into it nor read through it, and the snapshot the ended
// transaction lent stays released.
func TestTx_StaleHandle_Contained(t *testing.T) {
	s := mustOpen(t, tempPath(t), &Options{Strict: true})
	put(t, s, "a", "1")
	base := refs(s)
	for i := range 20 {
		old, _ := s.Begin()
		oldSn := old.Snapshot()
		old.Put([]byte("o"), []byte(fmt.Sprint(i)), Any)
		if i%2 == 0 {
			if _, err := old.Commit(); err != nil {
				t.Fatal(err)
			}
		} else if err := old.Rollback(); err != nil {
			t.Fatal(err)
		}
		tx, _ := s.Begin() // likely the state old had
		tx.Put([]byte("b"), []byte(fmt.Sprint(i)), Any)
		for name, err := range map[string]error{
			"Put":         old.Put([]byte("x"), []byte("stale"), Any),
			"PutBorrowed": old.PutBorrowed([]byte("x"), []byte("stale"), Any),
			"Delete":      old.Delete([]byte("b"), Any),
			"Rollback":    old.Rollback(),
		} {
			if err != ErrTxDone {
				t.Fatalf("round %d: %s on an ended Tx = %v, want ErrTxDone", i, name, err)
			}
		}
		if _, err := old.Commit(); err != ErrTxDone {
			t.Fatalf("round %d: Commit on an ended Tx = %v, want ErrTxDone", i, err)
		}
		if _, _, ok := old.Get([]byte("b")); ok {
			t.Fatalf("round %d: an ended Tx reads the next transaction's write", i)
		}
		if old.Snapshot() != oldSn {
			t.Fatalf("round %d: an ended Tx's Snapshot changed", i)
		}
		func() {
			defer func() {
				if msg, _ := recover().(string); !strings.Contains(msg, "used after Release") {
					t.Fatalf("round %d: read through an ended Tx's snapshot: panic %q, want one naming the misuse", i, msg)
				}
			}()
			oldSn.Get([]byte("a"))
		}()
		if v, _, ok := tx.Get([]byte("b")); !ok || v == nil || string(v) != fmt.Sprint(i) {
			t.Fatalf("round %d: the new transaction reads b=%q %v", i, v, ok)
		}
		if _, err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if v, _, _ := get(t, s, "x"); v != "" {
		t.Fatalf("x=%q: a stale handle wrote", v)
	}
	if v, _, _ := get(t, s, "b"); v != "19" {
		t.Fatalf("b=%q, want 19", v)
	}
	if got := refs(s); got != base {
		t.Fatalf("references %d after the transactions, want %d", got, base)
	}
	checkFreshPairs(t, s)
	closeAndReopen(t, s)
}

// TestSnapshot_UseAfterRelease_Panics: a read through a released snapshot
// panics with a message naming the misuse, instead of reading memory that
// may be unmapped.
func TestSnapshot_UseAfterRelease_Panics(t *testing.T) {
	s := mustOpen(t, tempPath(t), nil)
	defer s.Close()
	put(t, s, "a", "1")
	tx, _ := s.Begin()
	tx.Rollback()
	sn, _ := s.Snapshot()
	sn.Release()
	for name, fn := range map[string]func(){
		"Get":           func() { sn.Get([]byte("a")) },
		"Range":         func() { sn.Range(nil, nil, func(k, v []byte, rev uint64) bool { return true }) },
		"Borrow":        func() { sn.Borrow([]byte("a")) },
		"Tx.Snapshot()": func() { tx.Snapshot().Get([]byte("a")) },
	} {
		func() {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, "used after Release") {
					t.Errorf("%s on a released snapshot: panic %v, want one naming the misuse", name, r)
				}
			}()
			fn()
		}()
	}
	checkFreshPairs(t, s)
}

// TestClose_LiveSnapshots_ReleasesFile closes a store while a snapshot and
// a borrowed value are held: the file opens again at once, in this process
// and in a child process, and the held ones still read their version.
func TestClose_LiveSnapshots_ReleasesFile(t *testing.T) {
	path := tempPath(t)
	s := mustOpen(t, path, nil)
	put(t, s, "a", "1")
	put(t, s, "big", strings.Repeat("B", 5000))
	sn, _ := s.Snapshot()
	b, _, _ := s.Borrow([]byte("big"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s2, err := Open(path, &Options{Strict: true})
	if err != nil {
		t.Fatalf("open after Close with live snapshots: %v", err)
	}
	put(t, s2, "a", "2")
	if err := s2.Compact(); err != nil {
		t.Fatal(err)
	}
	put(t, s2, "big", "small now")
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}

	out, err := runOpenChild(path)
	if err != nil {
		t.Fatalf("child open after Close with live snapshots: %v: %s", err, out)
	}

	if v, _, _ := sn.Get([]byte("a")); string(v) != "1" {
		t.Fatalf("held snapshot reads a=%q, want its version's 1", v)
	}
	if string(b.Bytes()) != strings.Repeat("B", 5000) {
		t.Fatal("held borrowed value changed")
	}
	sn.Release()
	b.Release()
	s3 := mustOpen(t, path, &Options{Strict: true})
	defer s3.Close()
	if v, _, _ := get(t, s3, "child"); v != "was here" {
		t.Fatalf("child's commit: %q", v)
	}
	if v, _, _ := get(t, s3, "a"); v != "2" {
		t.Fatalf("a=%q after the second handle's commit", v)
	}
}

// TestOpen_Locked_ChildProcess: a child process cannot open a file this
// process holds open, and can once it is closed.
func TestOpen_Locked_ChildProcess(t *testing.T) {
	path := tempPath(t)
	s := mustOpen(t, path, nil)
	put(t, s, "a", "1")
	out, err := runOpenChild(path)
	if err == nil || !strings.Contains(out, ErrLocked.Error()) {
		t.Fatalf("child opened a locked file: %v: %s", err, out)
	}
	sn, _ := s.Snapshot()
	defer sn.Release()
	s.Close()
	if out, err := runOpenChild(path); err != nil {
		t.Fatalf("child open after Close: %v: %s", err, out)
	}
}

// runOpenChild runs openChild on path in a child process.
func runOpenChild(path string) (string, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "STORE_OPEN_CHILD="+path)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// openChild opens path, commits child=was here and closes; it exits 4
// with the error if any step fails.
func openChild(path string) {
	s, err := Open(path, nil)
	if err == nil {
		var tx *Tx
		if tx, err = s.Begin(); err == nil {
			tx.Put([]byte("child"), []byte("was here"), Any)
			_, err = tx.Commit()
		}
		if cerr := s.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(4)
	}
}
