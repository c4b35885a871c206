package kv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// eachMode runs f in every mode on a fresh directory.
func eachMode(t *testing.T, f func(t *testing.T, mode Mode, dir string)) {
	for _, m := range Modes() {
		t.Run(string(m), func(t *testing.T) { f(t, m, t.TempDir()) })
	}
}

func TestStore_Put_IfMatch(t *testing.T) {
	eachMode(t, func(t *testing.T, mode Mode, dir string) {
		s, err := Open(mode, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if _, err := s.Put("k", []byte("x"), 1, true); !errors.Is(err, ErrNotFound) {
			t.Errorf("If-Match on a missing document: %v, want ErrNotFound", err)
		}
		body := []byte("one")
		if rev, err := s.Put("k", body, 0, false); rev != 1 || err != nil {
			t.Fatalf("first Put: %d, %v", rev, err)
		}
		body[0] = 'X' // Put copied it
		var stale *StaleError
		if _, err := s.Put("k", []byte("two"), 7, true); !errors.As(err, &stale) || stale.Have != 1 || stale.Want != 7 {
			t.Errorf("stale If-Match: %v, want StaleError{1, 7}", err)
		}
		if b, rev, ok := s.Get("k"); string(b) != "one" || rev != 1 || !ok {
			t.Errorf("Get: %q %d %v, want one 1 true", b, rev, ok)
		}
	})
}

// Concurrent writers of one key with If-Match: exactly one wins each
// revision, so the final revision equals the number of successful Puts.
func TestStore_Put_ConcurrentIfMatch(t *testing.T) {
	eachMode(t, func(t *testing.T, mode Mode, dir string) {
		s, err := Open(mode, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		s.Put("k", nil, 0, false)
		var wins sync.Map
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 20 {
					_, rev, _ := s.Get("k")
					if nrev, err := s.Put("k", []byte{byte(w)}, rev, true); err == nil {
						if _, dup := wins.LoadOrStore(nrev, w); dup {
							t.Errorf("revision %d won twice", nrev)
						}
					} else if !errors.Is(err, ErrStale) {
						t.Error(err)
					}
					s.AddScore(fmt.Sprint("w", w), 1)
				}
			}()
		}
		wg.Wait()
		n := 0
		wins.Range(func(any, any) bool { n++; return true })
		if _, rev, _ := s.Get("k"); rev != uint64(n)+1 {
			t.Errorf("final revision %d, want %d successful Puts + 1", rev, n)
		}
		if s.Total() != 160 || s.Names() != 8 {
			t.Errorf("scores: total %d over %d names, want 160 over 8", s.Total(), s.Names())
		}
	})
}

func TestStore_Leaders_Pages(t *testing.T) {
	s, _ := Open(Memory, "")
	for i := range 30 {
		s.AddScore(fmt.Sprintf("n%02d", 29-i), int64(i))
	}
	rows := s.Leaders(25, 20)
	if len(rows) != 5 || rows[0] != (Row{"n25", 4}) || rows[4] != (Row{"n29", 0}) {
		t.Errorf("Leaders(25, 20) = %v", rows)
	}
	if rows := s.Leaders(40, 5); rows == nil || len(rows) != 0 {
		t.Errorf("Leaders past the end = %#v, want an empty non-nil slice", rows)
	}
}

// A log cut anywhere in its last record reopens with every earlier record.
func TestStore_Fdatasync_TornTail(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Fdatasync, dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Put("a", []byte("first"), 0, false)
	s.AddScore("x", 3)
	st, _ := os.Stat(filepath.Join(dir, LogName))
	whole := st.Size()
	s.Put("a", []byte("second"), 1, true)
	s.Close()
	full, err := os.ReadFile(filepath.Join(dir, LogName))
	if err != nil {
		t.Fatal(err)
	}
	for cut := whole; cut < int64(len(full)); cut++ {
		if err := os.WriteFile(filepath.Join(dir, LogName), full[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Open(Fdatasync, dir)
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		if b, rev, _ := s.Get("a"); string(b) != "first" || rev != 1 || s.Total() != 3 {
			t.Fatalf("cut at %d: a=%q rev %d total %d, want first 1 3", cut, b, rev, s.Total())
		}
		// Writing after the cut continues a clean log.
		s.Put("a", []byte("again"), 1, true)
		s.Close()
		s, _ = Open(Fdatasync, dir)
		if b, rev, _ := s.Get("a"); string(b) != "again" || rev != 2 {
			t.Fatalf("cut at %d, rewritten: a=%q rev %d, want again 2", cut, b, rev)
		}
		s.Close()
	}
}

// A crash between writing a temporary file and renaming it leaves the old
// document; Open removes the temporary file.
func TestStore_Crashsafe_LeftoverTemp(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(Crashsafe, dir)
	s.Put("a", []byte("kept"), 0, false)
	s.Close()
	tmp := filepath.Join(dir, docsDir, tmpPrefix+"123")
	os.WriteFile(tmp, []byte("9\nhalf"), 0o644)
	s, err := Open(Crashsafe, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if b, rev, _ := s.Get("a"); string(b) != "kept" || rev != 1 {
		t.Errorf("a = %q rev %d, want kept 1", b, rev)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("temporary file still there: %v", err)
	}
	if _, err := s.Put("b", nil, 0, false); err != nil {
		t.Error(err)
	}
	s.Close()
	if _, err := s.Put("b", nil, 0, false); !errors.Is(err, ErrClosed) {
		t.Errorf("Put after Close: %v, want ErrClosed", err)
	}
}

func TestParse_Fields(t *testing.T) {
	if rev, err := ParseIfMatch(`"12"`); rev != 12 || err != nil {
		t.Errorf(`ParseIfMatch("12") = %d, %v`, rev, err)
	}
	for _, bad := range []string{`12`, `"12`, `"x"`, `W/"1"`, `""`} {
		if _, err := ParseIfMatch(bad); err == nil {
			t.Errorf("ParseIfMatch(%s) accepted", bad)
		}
	}
	if f, c, err := ParsePage("", false, "", false); f != 0 || c != DefaultCount || err != nil {
		t.Errorf("ParsePage defaults = %d %d %v", f, c, err)
	}
	for _, bad := range []string{"..", "a/b", "a\x00", ".x", ""} {
		if CheckKey(bad) == nil {
			t.Errorf("CheckKey(%q) accepted", bad)
		}
	}
	if CheckName("a\nb") == nil || CheckName("zoë") != nil {
		t.Errorf("CheckName: control characters refused, UTF-8 accepted")
	}
}
