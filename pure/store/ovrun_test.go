package store

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOverlay_RunsFollowCommits commits groups of 1 to 200 writes (new
// keys, keys written again, deletes) under an overlay of up to 1,500
// keys, in strict mode, so that after every commit the leader's overlay
// (runs shared with the one before, the arena, the shared filter) is
// checked against the one Open rebuilds from the records. Snapshots
// pinned along the way must keep reading their own versions (Get of every
// key, and scans between random bounds) while later commits append to the
// arena and the filter they read, replace the arena, fold, compact and
// reopen.
func TestOverlay_RunsFollowCommits(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 941))
	path := tempPath(t)
	opts := &Options{FoldEntries: 1500, Strict: true}
	s := mustOpen(t, path, opts)
	defer func() { s.Close() }()
	prefixes := headPrefixes(rng)
	model := map[string]string{}
	var keys [][]byte
	type pinned struct {
		sn    *Snapshot
		model map[string]string
	}
	var pins []pinned
	defer func() {
		for _, p := range pins {
			p.sn.Release()
		}
	}()
	gens := map[uint64]bool{}
	maxRuns := 0
	for c := range 400 {
		tx, err := s.Begin()
		if err != nil {
			t.Fatal(err)
		}
		n := 1 + rng.IntN(8)
		if rng.IntN(8) == 0 {
			n = 1 + rng.IntN(200)
		}
		for range n {
			var k []byte
			switch r := rng.IntN(4); {
			case len(keys) > 0 && r == 0:
				k = keys[rng.IntN(len(keys))]
			case r == 1:
				k = headKey(rng, prefixes)
				keys = append(keys, k)
			default:
				k = []byte(key(rng.IntN(5000)))
				keys = append(keys, k)
			}
			writeModel(t, tx, model, k, fmt.Sprintf("v%d", c), rng.IntN(6) == 0)
		}
		if _, err := tx.Commit(); err != nil {
			t.Fatalf("commit %d: %v", c, err)
		}
		if v := s.cur.Load(); v.ov != nil {
			maxRuns = max(maxRuns, len(v.ov.spans))
		}
		gens[s.lv.arena.gen] = true
		if c%25 == 0 {
			sn, err := s.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			pins = append(pins, pinned{sn, maps.Clone(model)})
		}
		if c%10 == 0 {
			for i, p := range pins {
				checkSnapshotModel(t, rng, fmt.Sprintf("commit %d, snapshot %d", c, i), p.sn, p.model)
			}
		}
		switch c {
		case 200:
			if err := s.Compact(); err != nil {
				t.Fatal(err)
			}
		case 300:
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s = mustOpen(t, path, opts)
		}
	}
	checkStoreModel(t, rng, "the end", s, model)
	if maxRuns < 10 {
		t.Errorf("overlays held at most %d runs, want a test of many", maxRuns)
	}
	if len(gens) < 3 {
		t.Errorf("the leader used %d arenas, want a test of arenas being replaced", len(gens))
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

// checkStoreModel checks a fresh snapshot of s against model (see
// checkSnapshotModel) and releases it.
func checkStoreModel(t *testing.T, rng *rand.Rand, when string, s *Store, model map[string]string) {
	t.Helper()
	sn, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	checkSnapshotModel(t, rng, when, sn, model)
	sn.Release()
}

// checkSnapshotModel checks that sn reads model: Get of every key, a full
// scan, and scans between random bounds, some of them keys of the model.
func checkSnapshotModel(t *testing.T, rng *rand.Rand, when string, sn *Snapshot, model map[string]string) {
	t.Helper()
	for k, want := range model {
		if got, _, ok := sn.Get([]byte(k)); !ok || string(got) != want {
			t.Fatalf("%s: Get(%q) = %q, %v; want %q", when, k, got, ok, want)
		}
	}
	sorted := slices.Sorted(maps.Keys(model))
	bound := func() []byte {
		switch {
		case rng.IntN(5) == 0:
			return nil
		case len(sorted) > 0 && rng.IntN(2) == 0:
			return []byte(sorted[rng.IntN(len(sorted))])
		}
		return []byte(key(rng.IntN(5000)))
	}
	for i := range 6 {
		var from, to []byte
		if i > 0 {
			from, to = bound(), bound()
		}
		var want []string
		for _, k := range sorted {
			if (from == nil || k >= string(from)) && (to == nil || k < string(to)) {
				want = append(want, k)
			}
		}
		var got []string
		sn.Range(from, to, func(k, v []byte, _ uint64) bool {
			if string(v) != model[string(k)] {
				t.Fatalf("%s: Range gives %q = %q, model %q", when, k, v, model[string(k)])
			}
			got = append(got, string(k))
			return true
		})
		if !slices.Equal(got, want) {
			t.Fatalf("%s: Range(%q, %q) gives %d keys, model %d", when, from, to, len(got), len(want))
		}
	}
}

// TestOverlay_RunsSearch builds overlays of 0 to 700 random keys (so one
// run, or many) and checks find and seek against a byte-wise search of
// the same entries, for keys of the set and their neighbours.
func TestOverlay_RunsSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 940))
	prefixes := headPrefixes(rng)
	for round := range 40 {
		n := rng.IntN(700)
		if round < 4 {
			n = []int{0, 1, runMax, runMax + 1}[round]
		}
		var d []byte
		var ents []uint64
		for range n {
			ents = append(ents, uint64(len(d)))
			d = appendLogEntry(d, headKey(rng, prefixes), nil, 1, false)
		}
		slices.SortStableFunc(ents, func(a, b uint64) int { return bytes.Compare(logKey(d, a), logKey(d, b)) })
		ents = slices.CompactFunc(ents, func(a, b uint64) bool { return bytes.Equal(logKey(d, a), logKey(d, b)) })
		ov := &overlay{}
		ov.setRuns(slices.Clone(ents), appendHeads(nil, d, ents))
		if err := ov.checkRuns(d); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		for range 300 {
			var k []byte
			if len(ents) > 0 && rng.IntN(2) == 0 {
				k = append([]byte(nil), logKey(d, ents[rng.IntN(len(ents))])...)
				switch rng.IntN(4) {
				case 0:
					k = append(k, 0)
				case 1:
					k = k[:len(k)-1]
				}
			} else {
				k = headKey(rng, prefixes)
			}
			if len(k) == 0 {
				continue
			}
			wi, wok := searchEntsBytes(d, ents, k)
			e, ok := ov.find(d, k)
			if ok != wok || ok && e != ents[wi] {
				t.Fatalf("round %d: find(%q) = %d, %v; byte-wise entry %d, %v", round, k, e, ok, wi, wok)
			}
			p := ov.seek(d, k)
			i := 0
			for r := range p.r {
				_, m := spanOf(ov.spans[r])
				i += m
			}
			if i += p.i; i != wi {
				t.Fatalf("round %d: seek(%q) at entry %d, byte-wise %d", round, k, i, wi)
			}
		}
	}
}

// TestOverlay_RunsWritersAppend commits what pure-kvbench's writers do to
// the overlay's runs (mergeRuns's searchAppend and its runs laid into
// fresh directly, or cut past runMax): 40 writers each appending keys to
// its own range, groups of 1 to 60 writes from writers in a scrambled
// order, now and then a writer's earlier key written again, deleted, or
// a key put in the middle of a range (before keys of its head), in
// strict mode (each new overlay checked against Open's), folding and
// reopening along the way; the model must read back.
func TestOverlay_RunsWritersAppend(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 9752))
	path := tempPath(t)
	opts := &Options{FoldEntries: 700, Strict: true}
	s := mustOpen(t, path, opts)
	defer func() { s.Close() }()
	const writers = 40
	next := make([]int, writers)
	model := map[string]string{}
	wkey := func(w, n int) []byte { return fmt.Appendf(nil, "w%03d-%010d", w, n) }
	for c := range 300 {
		tx, err := s.Begin()
		if err != nil {
			t.Fatal(err)
		}
		n := 1 + rng.IntN(60)
		for j := range n {
			w := (c*7 + j*13) % writers
			switch r := rng.IntN(20); {
			case r == 0 && next[w] > 0: // written again, or deleted
				writeModel(t, tx, model, wkey(w, rng.IntN(next[w])), fmt.Sprintf("again%d", c), rng.IntN(2) == 0)
			case r == 1 && next[w] > 2: // in the middle of the range, under a key of its head
				writeModel(t, tx, model, append(wkey(w, rng.IntN(next[w]-1)), 'm'), fmt.Sprintf("mid%d", c), false)
			default:
				writeModel(t, tx, model, wkey(w, next[w]), fmt.Sprintf("v%d", c), false)
				next[w]++
			}
		}
		if _, err := tx.Commit(); err != nil {
			t.Fatalf("commit %d: %v", c, err)
		}
		if c == 150 {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s = mustOpen(t, path, opts)
		}
	}
	checkStoreModel(t, rng, "the end", s, model)
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestRunBuilder_MergesKeepOlder merges groups of writers' appends (and
// some keys written again) into overlays in one arena as the leader does
// (a fold now and then starting over), and checks after each merge: the
// new overlay's runs and index (checkRuns) and its entries against a
// model, and the eight overlays before it still holding exactly the
// entries they had (a merge appends only where no published version
// reads). Experiment 129 ran it with runs laid in the arena's tail too.
func TestRunBuilder_MergesKeepOlder(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 977))
	var d []byte
	model := map[string]uint64{} // key -> its newest entry's offset
	var b runBuilder
	var a runArena
	var ov *overlay
	type kept struct {
		ov   *overlay
		ents []uint64
	}
	var olds []kept
	const writers = 24
	next := make([]int, writers)
	for g := range 400 {
		if g%97 == 96 { // a fold: the next overlay starts empty, in the same arena
			ov, model = nil, map[string]uint64{}
		}
		var news []pending
		seen := map[string]bool{}
		for j := range 1 + rng.IntN(24) {
			w := (g*5 + j*7) % writers
			var k []byte
			if rng.IntN(10) == 0 && next[w] > 0 {
				k = fmt.Appendf(nil, "w%03d-%010d", w, rng.IntN(next[w]))
			} else {
				k = fmt.Appendf(nil, "w%03d-%010d", w, next[w])
				next[w]++
			}
			if seen[string(k)] {
				continue
			}
			seen[string(k)] = true
			off := uint64(len(d))
			d = appendLogEntry(d, k, []byte("v"), uint64(g), false)
			news = append(news, pending{key: k, head: keyHead(k), off: off})
			model[string(k)] = off
		}
		sortNews(news)
		b.reset()
		b.mergeRuns(d, ov, news)
		nv := new(overlay)
		b.finish(nv, &a, ov)
		if err := nv.checkRuns(d); err != nil {
			t.Fatalf("group %d: %v", g, err)
		}
		var got []uint64
		nv.all(func(e uint64) { got = append(got, e) })
		want := slices.Collect(maps.Values(model))
		slices.SortFunc(want, func(x, y uint64) int { return bytes.Compare(logKey(d, x), logKey(d, y)) })
		if !slices.Equal(got, want) {
			t.Fatalf("group %d: overlay of %d entries, model %d", g, len(got), len(want))
		}
		for _, o := range olds {
			var now []uint64
			o.ov.all(func(e uint64) { now = append(now, e) })
			if !slices.Equal(now, o.ents) {
				t.Fatalf("group %d: an earlier overlay changed", g)
			}
		}
		olds = append(olds, kept{nv, got})
		if len(olds) > 8 {
			olds = olds[1:]
		}
		ov = nv
	}
}
