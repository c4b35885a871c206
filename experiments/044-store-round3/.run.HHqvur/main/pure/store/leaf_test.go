package store

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// TestGroup_SameKeysInOneGroup forms groups of transactions that put and
// delete the same few keys (blind writes, so none conflicts) and compares
// the result with a model applying them in arrival order. Within a group
// the edits of one leaf accumulate: a key deleted and put again, inserted
// and deleted, put twice. Strict mode checks the tree and its key count
// after every group. It prints its seed.
func TestGroup_SameKeysInOneGroup(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 6))
	for _, nodeSize := range []int{128, defaultNodeSize} {
		t.Run(fmt.Sprint("node=", nodeSize), func(t *testing.T) {
			s := mustOpen(t, tempPath(t), &Options{Strict: true, nodeSize: nodeSize})
			defer s.Close()
			model := map[string]string{}
			for i := range 60 {
				put(t, s, key(i*2), "base")
				model[key(i*2)] = "base"
			}
			for round := range 40 {
				entered, release := pauseLeader(s)
				var wg sync.WaitGroup
				var first result
				startCommit(s, "first", &wg, &first)
				model["first"] = "v"
				<-entered
				n := 2 + rng.IntN(6)
				res := make([]result, n)
				for i := range n {
					tx, _ := s.Begin()
					for range 1 + rng.IntN(4) {
						k := key(rng.IntN(24) + 40*rng.IntN(3))
						if rng.IntN(3) == 0 {
							tx.Delete([]byte(k), Any)
							delete(model, k)
						} else {
							v := fmt.Sprint("r", round, "t", i)
							tx.Put([]byte(k), []byte(v), Any)
							model[k] = v
						}
					}
					commitAsync(tx, &wg, &res[i])
					waitQueued(s, i+1)
				}
				release()
				wg.Wait()
				s.testHookBeforeApply = nil
				for i, r := range append(res, first) {
					if r.err != nil {
						t.Fatalf("round %d commit %d: %v", round, i, r.err)
					}
				}
				if got := contents(t, s); !sameModel(got, model) {
					t.Fatalf("round %d: %d keys, model has %d", round, len(got), len(model))
				}
			}
		})
	}
}
