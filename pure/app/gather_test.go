package app

import (
	"testing"
	"time"

	"workbench/pure/store"
)

// gatherRuntime is a Runtime of the counter app on a RAM store, without
// its owner: the test plays the owner and calls gather itself.
func gatherRuntime(t *testing.T, opts Options) *Runtime {
	t.Helper()
	st, err := store.OpenRAM(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r, err := load(st, counter(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// gathering runs r.gather for a saved batch of size calls taken now, and
// returns a channel closed when it returns.
func gathering(r *Runtime, size int) <-chan struct{} {
	done := make(chan struct{})
	taken := r.arrived.Load()
	go func() {
		r.gather(time.Now(), taken, size)
		close(done)
	}()
	return done
}

// ends fails the test unless done is closed within a minute: a liveness
// bound for a gathering whose other rules would hold it for an hour, not
// a measure of how soon it ends.
func ends(t *testing.T, done <-chan struct{}, rule string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("gather still waiting after a minute: %s did not end it", rule)
	}
}

// TestGather_EndsByEachRule checks each of gather's three ends with the
// other two set to an hour: the call that completes the saved batch's
// count wakes the sleeping owner (Submit), a pause without arrivals ends
// it, and so does the cap.
func TestGather_EndsByEachRule(t *testing.T) {
	t.Run("all back", func(t *testing.T) {
		r := gatherRuntime(t, Options{Pause: time.Hour, Gather: time.Hour})
		done := gathering(r, 3)
		for i := range 3 {
			select {
			case <-done:
				t.Fatalf("gather ended after %d of the batch's 3 calls came back", i)
			case <-time.After(20 * time.Millisecond):
			}
			r.Submit(add("n=1"))
		}
		ends(t, done, "the third call's return")
	})
	t.Run("back before it began", func(t *testing.T) {
		r := gatherRuntime(t, Options{Pause: time.Hour, Gather: time.Hour})
		taken := r.arrived.Load()
		r.Submit(add("n=1"))
		r.Submit(add("n=1"))
		done := make(chan struct{})
		go func() { r.gather(time.Now(), taken, 2); close(done) }()
		ends(t, done, "calls that were back before the gathering")
	})
	t.Run("pause", func(t *testing.T) {
		r := gatherRuntime(t, Options{Pause: 2 * time.Millisecond, Gather: time.Hour})
		done := gathering(r, 3)
		r.Submit(add("n=1"))
		ends(t, done, "a pause with no calls")
	})
	t.Run("cap", func(t *testing.T) {
		r := gatherRuntime(t, Options{Pause: time.Hour, Gather: 5 * time.Millisecond})
		ends(t, gathering(r, 3), "the cap")
	})
	t.Run("off", func(t *testing.T) {
		r := gatherRuntime(t, Options{Pause: time.Hour, Gather: -1})
		ends(t, gathering(r, 3), "a negative Gather")
	})
}
