package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestCheckpoint_NoExtraSync: commits write checkpoints (every commit
// here, every 4 MiB by default) without a sync of their own, each naming
// the head before the commit's own.
func TestCheckpoint_NoExtraSync(t *testing.T) {
	for _, every := range []int64{1, 0} {
		t.Run(fmt.Sprint("every=", every), func(t *testing.T) {
			var ff *faultFile
			s := mustOpen(t, tempPath(t), &Options{ckptEvery: every, WrapFile: func(f File) File {
				ff = &faultFile{File: f}
				return ff
			}})
			defer s.Close()
			syncs := ff.syncs
			commits := 20
			val := "small"
			if every == 0 {
				val = strings.Repeat("v", 512<<10) // 20 commits of 512 KiB: past 4 MiB twice
			}
			for i := range commits {
				put(t, s, key(i), val)
			}
			if got := ff.syncs - syncs; got != commits {
				t.Fatalf("%d commits made %d syncs", commits, got)
			}
			c := s.ckpt
			if c.slot < 0 {
				t.Fatal("no checkpoint written")
			}
			if every == 1 && c.h.seq != s.tip.seq-1 {
				t.Fatalf("checkpoint names seq %d, want the head before the last (%d)", c.h.seq, s.tip.seq-1)
			}
			if every == 0 && s.tip.off+headSize-c.end(s.base) > defaultCheckpointEvery+(1<<20) {
				t.Fatalf("%d bytes follow the checkpoint, want at most %d plus a commit", s.tip.off+headSize-c.end(s.base), defaultCheckpointEvery)
			}
			d, _ := os.ReadFile(s.Path())
			if got := newestCheckpoint(d, dataStartV2); got != c {
				t.Fatalf("file's newest checkpoint %+v, store says %+v", got, c)
			}
		})
	}
}

// TestCheckpoint_CloseAndReopen: Close checkpoints the last head, the next
// Open starts from it and verifies nothing after, and Close writes no
// checkpoint when nothing was committed since.
func TestCheckpoint_CloseAndReopen(t *testing.T) {
	path := tempPath(t)
	s := mustOpen(t, path, nil)
	for i := range 50 {
		put(t, s, key(i), fmt.Sprint(i))
	}
	tip := s.tip
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	d, _ := os.ReadFile(path)
	if c := newestCheckpoint(d, dataStartV2); c.slot < 0 || c.h != tip {
		t.Fatalf("after Close the checkpoint is %+v, want the last head %+v", c, tip)
	}
	var ff *faultFile
	s = mustOpen(t, path, &Options{WrapFile: func(f File) File { ff = &faultFile{File: f}; return ff }})
	if s.tip != tip || s.ckpt.h != tip {
		t.Fatalf("reopened at %+v (checkpoint %+v), want %+v", s.tip, s.ckpt, tip)
	}
	if err := s.Close(); err != nil || ff.syncs != 0 {
		t.Fatalf("close without commits: %v, %d syncs", err, ff.syncs)
	}
	d2, _ := os.ReadFile(path)
	if !bytes.Equal(d, d2) {
		t.Fatal("open and close without commits changed the file")
	}
}

// TestCheckpoint_CloseFails: a failed checkpoint write or sync at Close is
// returned, the store is closed all the same, and a reopen finds every
// commit.
func TestCheckpoint_CloseFails(t *testing.T) {
	for n := 1; n <= 2; n++ {
		path := tempPath(t)
		var ff *faultFile
		s := mustOpen(t, path, &Options{WrapFile: func(f File) File { ff = &faultFile{File: f}; return ff }})
		for i := range 10 {
			put(t, s, key(i), "v")
		}
		ff.arm(n)
		if err := s.Close(); !errors.Is(err, errInjected) {
			t.Fatalf("fault %d: close returned %v", n, err)
		}
		if _, err := s.Snapshot(); !errors.Is(err, ErrClosed) {
			t.Fatalf("fault %d: store not closed: %v", n, err)
		}
		s = mustOpen(t, path, &Options{Strict: true})
		if got := len(contents(t, s)); got != 10 {
			t.Fatalf("fault %d: %d keys after reopen", n, got)
		}
		s.Close()
	}
}

// TestCheckpoint_NamesBadHead: a checkpoint slot whose checksum verifies
// but whose head is not in the file is damage (it is written only after
// its head was synced): Open refuses with ErrCorrupt, strict or not.
func TestCheckpoint_NamesBadHead(t *testing.T) {
	path := tempPath(t)
	s := mustOpen(t, path, nil)
	for i := range 10 {
		put(t, s, key(i), "v")
	}
	s.Close()
	d, _ := os.ReadFile(path)
	c := newestCheckpoint(d, dataStartV2)
	for name, edit := range map[string]func(h *head){
		"other offset": func(h *head) { h.off -= 8 },
		"other root":   func(h *head) { h.root++ },
		"beyond end":   func(h *head) { h.off = uint64(len(d)) + 4096 },
	} {
		h := c.h
		edit(&h)
		var sb [slotSize]byte
		encodeSlot(&sb, h)
		b := bytes.Clone(d)
		copy(b[slotOffset(c.slot):], sb[:])
		os.WriteFile(path, b, 0o644)
		for _, strict := range []bool{false, true} {
			if _, err := Open(path, &Options{Strict: strict}); !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s, strict=%v: open returned %v, want ErrCorrupt", name, strict, err)
			}
		}
	}
}

// TestCheckpoint_Version1File opens a file written by the format before
// checkpoints (testdata/v1.db, made by commit 3f79559): it reads it in full,
// appends to it as version 1, and Compact rewrites it as version 2.
func TestCheckpoint_Version1File(t *testing.T) {
	want := map[string]string{"big": strings.Repeat("B", 3000)}
	for i := range 200 {
		switch {
		case i >= 100:
			want[fmt.Sprintf("k%03d", i)] = fmt.Sprint("v3-", i)
		case i < 10 || i >= 20:
			want[fmt.Sprintf("k%03d", i)] = fmt.Sprint("v1-", i)
		}
	}
	src, err := os.ReadFile("testdata/v1.db")
	if err != nil {
		t.Fatal(err)
	}
	path := tempPath(t)
	os.WriteFile(path, src, 0o644)
	version := func() uint32 {
		d, _ := os.ReadFile(path)
		return le.Uint32(d[8:])
	}
	for _, strict := range []bool{false, true} {
		s := mustOpen(t, path, &Options{Strict: strict})
		if got := contents(t, s); !sameModel(got, want) {
			t.Fatalf("strict=%v: version 1 file reads %d keys, want %d", strict, len(got), len(want))
		}
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	s := mustOpen(t, path, &Options{Strict: true, ckptEvery: 1})
	for i := range 5 {
		put(t, s, key(i), "appended")
		want[key(i)] = "appended"
	}
	s.Close()
	if v := version(); v != formatV1 {
		t.Fatalf("appending changed the file to version %d", v)
	}
	d, _ := os.ReadFile(path)
	if !bytes.Equal(d[:len(src)], src) {
		t.Fatal("appending to a version 1 file rewrote its earlier bytes")
	}
	s = mustOpen(t, path, nil)
	if got := contents(t, s); !sameModel(got, want) {
		t.Fatal("appended version 1 file lost keys")
	}
	if err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	put(t, s, "after", "compact")
	want["after"] = "compact"
	s.Close()
	if v := version(); v != formatVersion {
		t.Fatalf("compaction left version %d", v)
	}
	d, _ = os.ReadFile(path)
	if c := newestCheckpoint(d, dataStartV2); c.slot < 0 {
		t.Fatal("compacted file has no checkpoint")
	}
	s = mustOpen(t, path, &Options{Strict: true})
	defer s.Close()
	if got := contents(t, s); !sameModel(got, want) {
		t.Fatal("compacted file lost keys")
	}
}
