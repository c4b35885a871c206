package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
)

// TestCrash_OneFile runs the three kill -9 tests' children in turn on one
// file, which grows over the cycles (the open child commits fresh keys
// every time): a cycle kills a committing child at a random moment
// (checkpointing often every other time), or kills it shortly after a
// random step of one of its compactions, or appends a torn tail and kills
// a child that reopens the file in a loop during one of its first three
// opens. After each kill the file must open, hold every write acknowledged
// in any cycle so far (at its acknowledged revision or a later one, with a
// value made of its key, as the children write them), verify in full and
// leave no path.compact behind. STORE_CRASH_CYCLES sets the number of
// cycles (default 12); the last line printed is
// "N cycles, A acknowledged, L lost".
func TestCrash_OneFile(t *testing.T) {
	cycles := envInt(t, "STORE_CRASH_CYCLES", 12)
	rng := rand.New(rand.NewPCG(testSeed(t), 9))
	path := tempPath(t)
	// A few MiB first, so that opens take long enough to be killed in.
	s := mustOpen(t, path, nil)
	for i := range 8 {
		k := fmt.Sprint("fill", i)
		put(t, s, k, strings.Repeat(k, (1<<20)/len(k)))
	}
	s.Close()

	model := map[string]uint64{} // every key acknowledged so far: its highest acknowledged revision
	for i := range 8 {
		model[fmt.Sprint("fill", i)] = 1
	}
	var ran, acked, lost int
	modes := map[string]int{}
	landed := map[string]int{}
	for c := range cycles {
		ran++
		var acks []ack
		var mode, phase string
		switch c % 3 {
		case 0:
			mode = "commits"
			every := int64(0)
			if c%2 == 1 {
				every = 8 << 10
			}
			acks = runCrashChild(t, path, rng.IntN(400), every)
		case 1:
			mode = "compaction"
			plan := killPlan{acks: 5000, phase: compactSteps[rng.IntN(len(compactSteps))], nth: 1 + rng.IntN(2),
				delay: time.Duration(rng.IntN(3000)) * time.Microsecond}
			acks, phase = runKilledChild(t, []string{"STORE_CRASH_CHILD=" + path, "STORE_CRASH_AUTOCOMPACT=262144"}, plan)
		case 2:
			mode = "open"
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
			plan := killPlan{acks: 1 << 30, phase: "open", nth: 1 + rng.IntN(3), delay: time.Duration(rng.IntN(10_000)) * time.Microsecond}
			acks, phase = runKilledChild(t, []string{"STORE_CRASH_REOPEN=" + path}, plan)
		}
		modes[mode]++
		landed[mode+"/"+phase]++
		acked += len(acks)
		for _, a := range acks {
			model[a.key] = max(model[a.key], a.rev)
		}

		s, err := Open(path, nil)
		if err != nil {
			t.Fatalf("cycle %d (%s, last phase %q): reopen after kill: %v", c, mode, phase, err)
		}
		if _, err := os.Stat(path + ".compact"); !os.IsNotExist(err) {
			t.Errorf("cycle %d: path.compact still there after Open: %v", c, err)
		}
		sn, _ := s.Snapshot()
		for k, want := range model {
			v, rev, ok := sn.Get([]byte(k))
			if !ok || rev < want {
				lost++
				t.Errorf("cycle %d (%s): acknowledged %s at rev %d, found rev %d (present %v)", c, mode, k, want, rev, ok)
				continue
			}
			if !bytes.HasPrefix([]byte(strings.Repeat(k, len(v)/len(k)+1)), v) {
				t.Errorf("cycle %d (%s): %s holds %d bytes that are not its key repeated", c, mode, k, len(v))
			}
		}
		sn.Release()
		if err := s.Check(); err != nil {
			t.Errorf("cycle %d (%s): %v", c, mode, err)
		}
		s.Close()
		if t.Failed() {
			break
		}
	}
	fi, _ := os.Stat(path)
	t.Logf("cycles by mode %v; last phase printed before the kill %v; %d keys, file %d bytes at the end",
		modes, landed, len(model), fi.Size())
	fmt.Printf("%d cycles, %d acknowledged, %d lost\n", ran, acked, lost)
}
