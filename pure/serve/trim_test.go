package serve

import (
	"strings"
	"testing"
	"time"
)

// TestServer_TrimAfterOutsizedBody: a PUT whose body is over the largest
// pooled read buffer makes the server return its memory once (a trim);
// PUTs and GETs whose buffers are pooled never do.
func TestServer_TrimAfterOutsizedBody(t *testing.T) {
	s := newTestServer(t, Config{})
	c := dial(t, listen(t, s))
	for i := range 20 {
		body := strings.Repeat("s", 100<<10) // a 128 KiB pooled buffer
		if rp := c.put("/docs/small", body); rp.status != 200 {
			t.Fatalf("PUT %d: %d %s", i, rp.status, rp.body)
		}
		if rp := c.get("/docs/small"); rp.status != 200 || len(rp.body) != len(body) {
			t.Fatalf("GET %d: %d, %d bytes", i, rp.status, len(rp.body))
		}
	}
	if n := s.trim.trims.Load(); n != 0 {
		t.Fatalf("%d trims after pooled-size bodies, want 0", n)
	}
	if rp := c.put("/docs/big", strings.Repeat("b", 3<<20)); rp.status != 200 {
		t.Fatalf("PUT of 3 MiB: %d %s", rp.status, rp.body)
	}
	// The trim runs on its own goroutine: wait for it (the bound is only
	// there so that a missing trim fails rather than hangs).
	for end := time.Now().Add(20 * time.Second); s.trim.trims.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("no trim after a 3 MiB body's buffer was dropped")
		}
	}
	if rp := c.get("/docs/big"); rp.status != 200 || len(rp.body) != 3<<20 {
		t.Fatalf("GET big after the trim: %d, %d bytes", rp.status, len(rp.body))
	}
}
