package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"
)

// reopenChild opens path again and again, strict every other time (a scan
// of the whole file), commits three keys after each open and closes
// (which checkpoints), printing "ack KEY REV" for each commit, until it is
// killed: kills land in Open's scan, its truncation of a torn tail and the
// sync after it, in commits and in Close's checkpoint.
//
// It prints "phase open", "phase commit" and "phase close" as it enters
// each, so the parent can aim its kill and say where it landed.
func reopenChild(path string) {
	for i := 0; ; i++ {
		fmt.Println("phase open")
		s, err := Open(path, &Options{Strict: i%2 == 1})
		if err != nil {
			fmt.Fprintln(os.Stderr, "child: open:", err)
			os.Exit(3)
		}
		fmt.Println("phase commit")
		for j := range 3 {
			k := fmt.Sprintf("r%d-%d-%d", os.Getpid(), i, j)
			tx, _ := s.Begin()
			tx.Put([]byte(k), []byte(k), Any)
			rev, err := tx.Commit()
			if err != nil {
				fmt.Fprintln(os.Stderr, "child: commit:", err)
				os.Exit(3)
			}
			fmt.Printf("ack %s %d\n", k, rev)
		}
		fmt.Println("phase close")
		if err := s.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "child: close:", err)
			os.Exit(3)
		}
	}
}

// TestCrash_KillDuringOpen kills, with SIGKILL during one of its first
// three opens, a child that reopens a file of about 24 MiB in a loop, after
// appending a torn tail the child's first Open must cut (and sync). Every acknowledged write must
// survive and the file must verify. STORE_CRASH_CYCLES sets the number of
// cycles (default 20); the last line printed is
// "N cycles, A acknowledged, L lost".
func TestCrash_KillDuringOpen(t *testing.T) {
	cycles := 20
	if v := os.Getenv("STORE_CRASH_CYCLES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("STORE_CRASH_CYCLES=%q: want a positive number", v)
		}
		cycles = n
	}
	rng := rand.New(rand.NewPCG(testSeed(t), 8))
	path := tempPath(t)
	s := mustOpen(t, path, nil)
	big := bytes.Repeat([]byte("f"), 1<<20)
	for i := range 24 {
		put(t, s, fmt.Sprint("fill", i), string(big))
	}
	s.Close()
	var acked, lost int
	killedIn := map[string]int{}
	for c := range cycles {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		junk := make([]byte, 1+rng.IntN(100<<10))
		for i := range junk {
			junk[i] = byte(rng.IntN(256))
		}
		f.Write(junk)
		f.Close()
		// Kill during the child's first, second or third open (plain,
		// strict, plain), 0 to 30 ms after it began. (Close, a write and
		// a sync, ends before a kill aimed at it lands; the torn-tail test
		// covers the checkpoint slot it writes, torn or not.)
		plan := killPlan{acks: 1 << 30, phase: "open", nth: 1 + rng.IntN(3), delay: time.Duration(rng.IntN(30_000)) * time.Microsecond}
		acks, phase := runKilledChild(t, []string{"STORE_CRASH_REOPEN=" + path}, plan)
		killedIn[phase]++
		acked += len(acks)
		s, err := Open(path, nil)
		if err != nil {
			t.Fatalf("cycle %d (killed in phase %q): reopen: %v", c, phase, err)
		}
		sn, _ := s.Snapshot()
		for _, a := range acks {
			if _, rev, ok := sn.Get([]byte(a.key)); !ok || rev < a.rev {
				lost++
				t.Errorf("cycle %d: acknowledged %s at rev %d, found rev %d (present %v)", c, a.key, a.rev, rev, ok)
			}
		}
		sn.Release()
		if err := s.Check(); err != nil {
			t.Errorf("cycle %d: %v", c, err)
		}
		s.Close()
	}
	t.Logf("killed during open %d times, commits %d, close %d", killedIn["open"], killedIn["commit"], killedIn["close"])
	fmt.Printf("%d cycles, %d acknowledged, %d lost\n", cycles, acked, lost)
}
