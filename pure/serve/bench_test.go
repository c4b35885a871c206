package serve

import (
	"strings"
	"testing"
)

// BenchmarkConn_PipelinedGets: parse, answer and send (to memory) a batch
// of 16 pipelined GETs of a 64 B document; one op is one request.
func BenchmarkConn_PipelinedGets(b *testing.B) {
	s, err := New(Config{Store: benchStore(b)})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Shutdown(b.Context())
	in := strings.Repeat("GET /docs/d07 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", 16)
	c := testConn(s)
	c.nc = &memConn{discard: true}
	b.ReportAllocs()
	for i := 0; i < b.N; i += 16 {
		c.r0, c.r1 = 0, copy(c.rbuf, in)
		c.batch()
		if err := c.flush(); err != nil {
			b.Fatal(err)
		}
	}
}
