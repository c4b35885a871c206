package load

import (
	"bytes"
	"net"
	"testing"
	"time"
)

// TestWorker_Batch_NoAllocs runs pipelined batches of document GETs
// against a server that allocates nothing per request either, and asserts
// that a batch (build, write, read and count the answers) allocates
// nothing.
func TestWorker_Batch_NoAllocs(t *testing.T) {
	c := config("http://127.0.0.1:1", WorkloadGet, 1, 1)
	tg, err := c.check()
	if err != nil {
		t.Fatal(err)
	}
	shared := &fixed{reqs: [][]byte{request("GET", "/docs/d00", tg.host, false, nil)}}
	reqLen := len(shared.reqs[0])
	ans := []byte("HTTP/1.1 200 OK\r\nContent-Length: 64\r\nETag: \"3\"\r\n\r\n" + string(bytes.Repeat([]byte("x"), 64)))
	url, _ := rawServer(t, func(c net.Conn) {
		buf := make([]byte, 64<<10)
		out := bytes.Repeat(ans, 16)
		pending := 0
		for {
			n, err := c.Read(buf)
			if err != nil {
				return
			}
			pending += n
			for k := pending / reqLen; k > 0; {
				m := min(k, 16)
				if _, err := c.Write(out[:m*len(ans)]); err != nil {
					return
				}
				k -= m
				pending -= m * reqLen
			}
		}
	})
	c.Target = url
	if tg, err = c.check(); err != nil {
		t.Fatal(err)
	}
	addr, err := resolve(tg.addr)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{cfg: c, t: tg, addr: addr, base: time.Now()}
	w := newWorker(r, 0, shared)
	defer w.closeConn()
	w.batch(16, 0) // connect and warm up
	allocs := testing.AllocsPerRun(200, func() { w.batch(16, 0) })
	if w.ok != 202*16 || w.errs.Total() != 0 {
		t.Fatalf("%d ok, errors %+v: want %d answers and no error", w.ok, w.errs, 202*16) // AllocsPerRun runs once more to warm up
	}
	if allocs != 0 {
		t.Fatalf("a batch of 16 allocates %.2f times", allocs)
	}
}
