package store

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain runs the crash test's child when STORE_CRASH_CHILD names a
// store file; otherwise the tests.
func TestMain(m *testing.M) {
	if path := os.Getenv("STORE_CRASH_CHILD"); path != "" {
		crashChild(path)
		os.Exit(0)
	}
	if path := os.Getenv("STORE_CRASH_REOPEN"); path != "" {
		reopenChild(path)
		os.Exit(0)
	}
	if path := os.Getenv("STORE_OPEN_CHILD"); path != "" {
		openChild(path)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// crashFolds are the Options.FoldEntries of successive crash children;
// crashChildren counts the children started.
var (
	crashFolds    = []int{0, 16, -1}
	crashChildren int
)

// crashChild commits from six goroutines until it is killed, printing
// "ack KEY REV" for every key of every acknowledged commit.
//
// STORE_CRASH_CHECKPOINT, when set, is the checkpoint interval in bytes, so
// that kills land while and right after checkpoint slots are written.
// STORE_CRASH_FOLD, when set, is Options.FoldEntries.
// STORE_CRASH_AUTOCOMPACT, when set, is Options.AutoCompact; the child
// then prints "phase compact-STEP" at each step of every compaction.
func crashChild(path string) {
	opts := &Options{}
	if v := os.Getenv("STORE_CRASH_FOLD"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			fmt.Fprintln(os.Stderr, "child: STORE_CRASH_FOLD:", err)
			os.Exit(2)
		}
		opts.FoldEntries = n
	}
	if v := os.Getenv("STORE_CRASH_CHECKPOINT"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "child: STORE_CRASH_CHECKPOINT:", err)
			os.Exit(2)
		}
		opts.ckptEvery = n
	}
	if v := os.Getenv("STORE_CRASH_AUTOCOMPACT"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "child: STORE_CRASH_AUTOCOMPACT:", err)
			os.Exit(2)
		}
		opts.AutoCompact = n
	}
	s, err := Open(path, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(2)
	}
	if opts.AutoCompact != 0 {
		// Say where compactions are, so the parent can aim its kills.
		s.testHookCompact = func(step string) { fmt.Printf("phase compact-%s\n", step) }
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(os.Getpid()), uint64(g)))
			var line []byte
			for i := 0; ; i++ {
				if g == 0 && i%60 == 59 {
					if err := s.Compact(); err != nil {
						fmt.Fprintln(os.Stderr, "child: compact:", err)
						os.Exit(3)
					}
				}
				tx, err := s.Begin()
				if err != nil {
					fmt.Fprintln(os.Stderr, "child:", err)
					os.Exit(3)
				}
				keys := make([]string, 1+rng.IntN(3))
				for j := range keys {
					keys[j] = fmt.Sprintf("g%d-k%02d", g, rng.IntN(40))
					n := 10 + rng.IntN(300)
					if rng.IntN(20) == 0 {
						n = 2000 + rng.IntN(40000)
					}
					tx.Put([]byte(keys[j]), []byte(strings.Repeat(keys[j], n/len(keys[j])+1)[:n]), Any)
				}
				rev, err := tx.Commit()
				if err != nil {
					fmt.Fprintln(os.Stderr, "child: commit:", err)
					os.Exit(3)
				}
				line = line[:0]
				for _, k := range keys {
					line = fmt.Appendf(line, "ack %s %d\n", k, rev)
				}
				mu.Lock()
				os.Stdout.Write(line)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

type ack struct {
	key string
	rev uint64
}

// TestCrash_KillDuringCommits kills a committing child process with
// SIGKILL at a random moment, reopens the file and checks that every
// acknowledged write survived and the tree verifies. STORE_CRASH_CYCLES sets
// the number of cycles (default 20); the last line printed is
// "N cycles, A acknowledged, L lost".
func TestCrash_KillDuringCommits(t *testing.T) {
	cycles := 20
	if v := os.Getenv("STORE_CRASH_CYCLES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("STORE_CRASH_CYCLES=%q: want a positive number", v)
		}
		cycles = n
	}
	rng := rand.New(rand.NewPCG(testSeed(t), 2))
	path := tempPath(t)
	var acked, lost int
	for c := range cycles {
		// Every other cycle checkpoints often (every 8 KiB: every few
		// commits), so kills land while and right after slots are written.
		every := int64(0)
		if c%2 == 1 {
			every = 8 << 10
		}
		acks := runCrashChild(t, path, rng.IntN(400), every)
		acked += len(acks)
		// A plain open starts from the checkpoint; Check below verifies
		// the whole file, checkpoint slots included.
		s, err := Open(path, nil)
		if err != nil {
			t.Fatalf("cycle %d: reopen after kill: %v", c, err)
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
		if c%4 == 3 {
			// Keep the file small, so every cycle's recovery scan is short.
			if err := s.Compact(); err != nil {
				t.Errorf("cycle %d: compact: %v", c, err)
			}
		}
		s.Close()
	}
	fmt.Printf("%d cycles, %d acknowledged, %d lost\n", cycles, acked, lost)
}

// runCrashChild starts a child committing to path (checkpointing every
// ckptEvery bytes; 0: the default), kills it after it acknowledged
// killAfter writes and returns every acknowledgement it printed before
// dying.
func runCrashChild(t *testing.T, path string, killAfter int, ckptEvery int64) []ack {
	env := []string{"STORE_CRASH_CHILD=" + path}
	if ckptEvery != 0 {
		env = append(env, fmt.Sprint("STORE_CRASH_CHECKPOINT=", ckptEvery))
	}
	acks, _ := runKilledChild(t, env, killPlan{acks: killAfter})
	return acks
}

// killPlan says when runKilledChild kills its child: once it printed
// acks acknowledgements, or delay after it printed "phase <phase>" for the
// nth time, whichever comes first.
type killPlan struct {
	acks  int
	phase string
	nth   int
	delay time.Duration
}

// runKilledChild starts this test binary as a child with env added, kills
// it with SIGKILL as plan says, and returns every acknowledgement it
// printed before dying and the last phase it printed ("" if none).
func runKilledChild(t *testing.T, env []string, plan killPlan) ([]ack, string) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	// Children take turns: log records with the default fold, log records
	// folded every few commits, tree commits (Options.FoldEntries).
	cmd.Env = append(cmd.Env, fmt.Sprint("STORE_CRASH_FOLD=", crashFolds[crashChildren%len(crashFolds)]))
	crashChildren++
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	kill := func() { cmd.Process.Signal(syscall.SIGKILL) }
	r := bufio.NewReader(out)
	var acks []ack
	var phase string
	killed, phases := false, 0
	for {
		if !killed && len(acks) >= plan.acks {
			kill()
			killed = true
		}
		line, err := r.ReadString('\n')
		if err == io.EOF {
			break // a fragment without a newline was never fully written
		}
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "phase" {
			phase = f[1]
			if phase == plan.phase {
				if phases++; phases == plan.nth && !killed {
					timer := time.AfterFunc(plan.delay, kill)
					defer timer.Stop()
				}
			}
			continue
		}
		if len(f) != 3 || f[0] != "ack" {
			t.Fatalf("child printed %q", line)
		}
		rev, err := strconv.ParseUint(f[2], 10, 64)
		if err != nil {
			t.Fatalf("child printed %q", line)
		}
		acks = append(acks, ack{f[1], rev})
	}
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child did not die by SIGKILL: %v", err)
	}
	return acks, phase
}
