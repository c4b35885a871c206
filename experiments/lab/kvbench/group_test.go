package kvbench

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestGroup_RecordsDurableAndWhole: in both disciplines, every Put that
// returned has its record in the file, each exactly once, and the syncs
// number at most the puts (many writers share one sync when they queue
// during another).
func TestGroup_RecordsDurableAndWhole(t *testing.T) {
	for _, waitAll := range []bool{false, true} {
		t.Run(map[bool]string{false: "back-to-back", true: "wait-all"}[waitAll], func(t *testing.T) {
			testGroupRecords(t, waitAll)
		})
	}
}

func testGroupRecords(t *testing.T, waitAll bool) {
	dir := t.TempDir()
	w, err := openGroup(dir, waitAll)
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 8, 50
	putAll(t, w, writers, each)
	syncs, _ := w.Syncs()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if syncs < 1 || syncs > writers*each {
		t.Errorf("%d syncs for %d puts", syncs, writers*each)
	}
	b, err := os.ReadFile(filepath.Join(dir, "group.log"))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < groupPrealloc {
		t.Errorf("file is %d bytes, want the %d preallocated", len(b), groupPrealloc)
	}
	seen := map[string]int{}
	for off := 0; off+4 <= len(b); {
		h := binary.LittleEndian.Uint32(b[off:])
		if h == 0 {
			break // the preallocated zeros
		}
		kl, vl := int(h>>16), int(h&0xffff)
		key, val := b[off+4:off+4+kl], b[off+4+kl:off+4+kl+vl]
		if string(val) != string(Value) {
			t.Fatalf("record at %d: value %q", off, val)
		}
		seen[string(key)]++
		off += 4 + kl + vl
	}
	for id := range writers {
		for n := range each {
			if k := string(AppendWriteKey(nil, id, n)); seen[k] != 1 {
				t.Errorf("key %s found %d times", k, seen[k])
			}
		}
	}
	if len(seen) != writers*each {
		t.Errorf("%d distinct keys in the file, want %d", len(seen), writers*each)
	}
	if err := w.Put([]byte("k"), Value); err == nil {
		t.Error("Put after Close did not fail")
	}
}

// TestGroup_WaitAllGathersEveryWriter: waiting for every writer of the
// last group, 8 writers that come back at once share a sync each time
// after the first few, where syncing back to back cannot average more
// than 4. Counted, not timed: the 2 ms gather bound is far above the
// writers' return on any machine, and a slow one only makes groups
// smaller, which the bound below allows for.
func TestGroup_WaitAllGathersEveryWriter(t *testing.T) {
	w, err := openGroup(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	const writers, each = 8, 40
	putAll(t, w, writers, each)
	syncs, _ := w.Syncs()
	if perSync := float64(writers*each) / float64(syncs); perSync <= writers/2 {
		t.Errorf("%d puts in %d syncs (%.1f a sync): waiting for all 8 writers should average more than 4", writers*each, syncs, perSync)
	}
}

// putAll has writers goroutines each Put its own each keys into w, and
// waits for them.
func putAll(t *testing.T, w Writer, writers, each int) {
	t.Helper()
	var wg sync.WaitGroup
	for id := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range each {
				if err := w.Put(AppendWriteKey(nil, id, n), Value); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
