// Package load is Pure's HTTP/1.1 load generator, the library behind
// pure-load: a wrk-like client that drives a server over N connections and
// measures what comes back, built so that it is not the bottleneck (it
// reaches at least wrk's requests per second on the same CPU: experiments
// 026 on the Intel machine, and 141 and 142 on the AMD one, where a new
// connection per request reads 1.10x wrk).
//
// # Using it
//
// Fill a Config (DefaultConfig gives 64 keep-alive connections for 10 s of
// document GETs), call Run, and print the Result (its JSON form is the
// line pure-load --json prints; WriteSummary is the human form).
//
// Each connection is one goroutine with its own socket, read buffer,
// counters and Histogram; nothing is shared on the hot path but the
// request budget of a counted run (one atomic claim per batch). A batch is
// Pipeline requests written with one write call, then their answers read
// in order; each request's latency runs from that write to the read call
// that completed its answer. With Close every request goes on a new
// connection and says "Connection: close". A failed connection counts its
// unanswered requests as errors by kind and is reopened for the next
// batch. With a Rate each connection sleeps until its next batch's turn
// (Connections×Pipeline/Rate seconds apart, the connections' turns spread
// over that interval); one whose answers came late sends at once, without
// catching up.
//
// # Workloads
//
// Paths of documents are Prefix (default /docs/) followed by the key; the
// HTTP contract is the one in the project's brief.
//
//	seed     PUT the 64 documents d00..d63 of 64 B and big of 1 MiB, once, then end
//	get      GET the 64 small documents round-robin
//	big      GET the 1 MiB document big
//	put      writer i (connection i) owns w<i>: its first PUT writes 16 B without
//	         If-Match, each next one 16 new bytes before the content with
//	         If-Match: the last ETag; a 412 (or any surprise) is counted and
//	         followed by a GET that learns the document again
//	score    POST /inputs/score?points=1, the body a name from a fixed set of 16
//	total    GET /views/total
//	leaders  GET /views/leaders?from=0&count=20
//
// Requests are built once into byte slices (put builds each PUT into the
// connection's reused write buffer), so the loop allocates nothing (a test
// asserts it for pipelined GETs). Sockets are opened, read, written and
// closed with raw system calls, so the scheduler's monitor does not hand
// the goroutines' thread around on a busy CPU; a socket joins the
// runtime's poller only when a call finds it not ready, and yields once
// before its first read, so a --close connection answered meanwhile never
// joins (no fcntl, epoll_ctl or EAGAIN read: 6 system calls per request).
// rawio.go says why; experiment 141 measures it against wrk.
//
// A response head is parsed in one pass, line by line up to the blank
// line, and headers in the spelling servers usually send (Date,
// Content-Type, Content-Length, ETag) are recognised by a prefix compare
// of at most 8 bytes; any other spelling takes the general, case-blind
// path. On pipelined small GETs (get-pipe16 against pure-serve) this took
// the user-space instructions per request from 2,773 to 1,489 (callgrind)
// and the CPU per request by about a sixth; pure-serve then reaches its
// CPU limit (4.9 of 5 s) where it had 4.5-4.7 (probe 995, experiment 145).
// The rest of the generator's CPU there is the kernel's (three quarters,
// perf): the sendto runs the server's receive path, the read the copy.
// Yielding before every batch's first read, which saves the read that
// finds nothing, starved the connections parked in the poller (p99.9 up
// to 91 ms) and was not kept (probe 995).
//
// # The JSON line
//
// One object with these fields (documented on Result and Errors):
//
//	tool, workload, target, connections, pipeline, keepalive, duration_s,
//	requests, ok, non2xx,
//	errors{connect, write, read, timeout, parse, closed},
//	ok_per_s, latency_us{p50, p90, p99, p999, max}, client_cpu_s
//
// requests = ok + non2xx + the errors' sum. Requests in flight when the run
// is cancelled (or still unanswered a timeout after a duration run's end)
// are dropped and counted nowhere.
//
// # Pieces
//
//	config.go    Config, the workloads' names, validation and the target URL
//	workload.go  the requests of each workload; the put writer's ETag chain
//	run.go       Run: connections started, stopped, their counts merged; CPU time
//	conn.go      one connection's loop: batch, write, read answers, count, reconnect
//	dial.go      connecting: a raw non-blocking connect, the write waits for it
//	rawio.go     sock: raw reads and writes, joining the poller when one would block
//	resp.go      the allocation-free HTTP/1.1 response reader (one-pass head, length, chunked, ETag)
//	hist.go      the logarithmic latency histogram
//	result.go    Result, Errors, Latency: the JSON line and the human summary
package load
