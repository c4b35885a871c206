package kvbench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// WriteOptions sizes a Writes measurement.
type WriteOptions struct {
	// Writers is the number of concurrent writers (goroutines).
	Writers int
	// Duration is how long the writers keep starting commits. Ignored
	// when Count is set.
	Duration time.Duration
	// Count, when positive, is the number of commits each writer makes
	// instead of running for Duration (tests use it).
	Count int
}

// Writes measures durable single-key commits: o.Writers goroutines, each
// committing new keys under its own prefix (AppendWriteKey) with the
// 16-byte Value, one key per transaction, until o.Duration has passed (a
// commit started before the deadline is completed and counted) or each
// made o.Count commits. Every commit's latency is timed. The first error
// stops every writer and is returned. Cancelling ctx stops the writers
// early; the result then covers what they did.
func Writes(ctx context.Context, w Writer, o WriteOptions) (Result, error) {
	if o.Writers <= 0 {
		return Result{}, fmt.Errorf("writes: need at least one writer, got %d", o.Writers)
	}
	if o.Count <= 0 && o.Duration <= 0 {
		return Result{}, errors.New("writes: need a duration or a count")
	}
	var (
		stop     atomic.Bool
		errOnce  sync.Once
		firstErr error
		wg       sync.WaitGroup
		start    = make(chan struct{})
		lats     = make([][]time.Duration, o.Writers)
		t0       time.Time
	)
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err })
		stop.Store(true)
	}
	for i := range o.Writers {
		lats[i] = make([]time.Duration, 0, max(o.Count, 1024))
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			var key []byte
			lat := lats[id]
			<-start
			deadline := t0.Add(o.Duration)
			now := t0 // the end of the last commit: checked against the deadline
			for n := 0; !stop.Load(); n++ {
				if o.Count > 0 {
					if n >= o.Count {
						break
					}
				} else if !now.Before(deadline) {
					break
				}
				key = AppendWriteKey(key[:0], id, n)
				before := time.Now()
				if err := w.Put(key, Value); err != nil {
					fail(fmt.Errorf("writer %d, commit %d: %w", id, n, err))
					break
				}
				now = time.Now()
				lat = append(lat, now.Sub(before))
			}
			lats[id] = lat
		}(i)
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			stop.Store(true)
		case <-done:
		}
	}()

	m := startMeter(w)
	t0 = time.Now()
	close(start)
	wg.Wait()
	elapsed := time.Since(t0)
	var r Result
	m.stop(&r)
	close(done)

	all := slices.Concat(lats...)
	slices.Sort(all)
	r.Ops, r.Elapsed = int64(len(all)), elapsed
	r.HasLatency = len(all) > 0
	r.P50, r.P99 = Percentile(all, 0.50), Percentile(all, 0.99)
	return r, firstErr
}
