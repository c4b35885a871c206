package store

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"
)

// compactSteps are the steps an online compaction announces (compactHook).
var compactSteps = []string{"compact-start", "compact-copied", "compact-synced", "compact-renamed"}

// TestCrash_KillDuringCompaction kills a committing child with SIGKILL
// at a random moment shortly after a random step of one of its
// compactions (automatic ones, every 256 KiB of growth, in the background
// while six goroutines commit, and explicit ones): during the first copy,
// the rounds, the last step under the writer lock, the rename, the
// directory sync and the swap. Each reopen must find every acknowledged
// write, verify in full (Check), and leave no path.compact behind.
// STORE_CRASH_CYCLES sets the number of cycles (default 10); the last
// line printed is "N cycles, A acknowledged, L lost".
func TestCrash_KillDuringCompaction(t *testing.T) {
	cycles := 10
	if v := os.Getenv("STORE_CRASH_CYCLES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("STORE_CRASH_CYCLES=%q: want a positive number", v)
		}
		cycles = n
	}
	rng := rand.New(rand.NewPCG(testSeed(t), 3))
	path := tempPath(t)
	var acked, lost int
	landed := map[string]int{}
	for c := range cycles {
		plan := killPlan{
			acks:  5000, // in case no compaction comes
			phase: compactSteps[rng.IntN(len(compactSteps))],
			nth:   1 + rng.IntN(2),
			delay: time.Duration(rng.IntN(3000)) * time.Microsecond,
		}
		acks, last := runKilledChild(t, []string{"STORE_CRASH_CHILD=" + path, "STORE_CRASH_AUTOCOMPACT=262144"}, plan)
		landed[last]++
		acked += len(acks)
		s, err := Open(path, nil)
		if err != nil {
			t.Fatalf("cycle %d (killed %v after %s): reopen: %v", c, plan.delay, plan.phase, err)
		}
		if _, err := os.Stat(path + ".compact"); !os.IsNotExist(err) {
			t.Errorf("cycle %d: path.compact still there after Open: %v", c, err)
		}
		sn, _ := s.Snapshot()
		for _, a := range acks {
			_, rev, ok := sn.Get([]byte(a.key))
			if !ok || rev < a.rev {
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
	t.Logf("last phase printed before the kill: %v", landed)
	fmt.Printf("%d cycles, %d acknowledged, %d lost\n", cycles, acked, lost)
}
