package tpcc_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"workbench/pure/app"
	"workbench/pure/apps/tpcc"
	"workbench/pure/store"
)

// crashEnv names the store file of the child process of the kill -9 test.
const crashEnv = "TPCC_CRASH_CHILD"

// TestMain runs the crash test's child when asked: it serves the mix from
// eight goroutines on the durable store and prints "ack D O" for every
// New-Order answered 200 (so saved), until it is killed.
func TestMain(m *testing.M) {
	if path := os.Getenv(crashEnv); path != "" {
		crashChild(path)
		return
	}
	os.Exit(m.Run())
}

func crashChild(path string) {
	st, err := store.Open(path, nil)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	rt, err := app.Start(st, tpcc.New(), app.Options{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	for g := range 8 {
		go func() {
			mix := tpcc.NewMix(tpcc.Small, 1, uint64(time.Now().UnixNano())+uint64(g))
			for {
				x := mix.Next()
				x.Now += int64(g) << 40 // history keys stay unique across goroutines
				c := &app.Call{}
				c.Kind, c.Name, c.Query, c.Body = x.Call()
				rt.Submit(c)
				c.Wait()
				if x.Kind == tpcc.NewOrder && c.Status == 200 {
					var o, total int64
					fmt.Sscan(string(c.Out), &o, &total)
					mu.Lock()
					fmt.Fprintf(out, "ack %d %d\n", x.D, o)
					out.Flush()
					mu.Unlock()
				}
			}
		}()
	}
	select {}
}

// TestTPCC_KillDuringWrites: a child serving the mix on a durable store
// is killed with SIGKILL while it writes; after reopening, the
// consistency conditions hold and every New-Order it acknowledged is
// there. Three cycles on the same store.
func TestTPCC_KillDuringWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("kill -9 cycles take a few seconds; run without -short")
	}
	path := filepath.Join(t.TempDir(), "tpcc.pure")
	st, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := tpcc.Seed(st, tpcc.Small, 1); err != nil {
		t.Fatal(err)
	}
	st.Close()
	total := 0
	for cycle := range 3 {
		acks := crashCycle(t, path, 150+100*cycle)
		total += len(acks)
		st, err := store.Open(path, nil)
		if err != nil {
			t.Fatalf("cycle %d: reopening: %v", cycle, err)
		}
		sn, err := st.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range acks {
			key := fmt.Sprintf("a/tpcc/orders/0001%02d%08d", a[0], a[1])
			if _, _, ok := sn.Get([]byte(key)); !ok {
				t.Errorf("cycle %d: acknowledged order %d of district %d is lost", cycle, a[1], a[0])
			}
		}
		sn.Release()
		rt, err := app.StartLocal(st, tpcc.New(), app.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := view(t, rt.Do, "consistency", ""); got != "ok" {
			t.Errorf("cycle %d: consistency after kill -9: %s", cycle, got)
		}
		rt.Close()
		st.Close()
	}
	t.Logf("%d acknowledged New-Orders over 3 kill -9 cycles, none lost", total)
}

// crashCycle starts the child, reads its acknowledgements until n have
// come (or 20 s passed), kills it with SIGKILL and returns them.
func crashCycle(t *testing.T, path string, n int) [][2]int64 {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(20*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	var acks [][2]int64
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		var d, o int64
		if _, err := fmt.Sscanf(sc.Text(), "ack %d %d", &d, &o); err != nil {
			t.Fatalf("child: %s", sc.Text())
		}
		acks = append(acks, [2]int64{d, o})
		if len(acks) == n {
			break
		}
	}
	cmd.Process.Kill() // SIGKILL
	cmd.Wait()
	if len(acks) < n {
		t.Fatalf("the child acknowledged %d New-Orders, want %d before the kill", len(acks), n)
	}
	return acks
}
