// Package serve is Pure's HTTP/1.1 host: documents over the tree store
// (package store) and apps (package app), written by hand on net.Listener
// and net.Conn rather than net/http, because the host is what the workbench
// studies and must cost fewer CPU-seconds per request than the servers a
// user would write instead.
//
// # Routes
//
//	GET|HEAD /docs/<key>         the document's bytes, ETag: "<rev>"; 404 if absent
//	PUT      /docs/<key>         store the body; If-Match: "<rev>" (or *) and
//	                             If-None-Match: * make it conditional (412 when
//	                             stale); 200 with the new ETag once durable
//	POST     /inputs/<name>?...  an app input (body = its text field)
//	GET|HEAD /views/<name>?...   an app view
//
// Documents are stored under Config.DocPrefix ("d/") so apps share the
// store. A key is percent-decoded and refused with 400 naming the problem
// when it is empty, longer than MaxKeyBytes, holds a NUL or control byte, an
// encoded slash (%2F) or a "." or ".." segment. Any other path gets 404
// naming it. Error answers are text: "<status word>: <what and what to do>\n".
//
// # Worker model
//
// Serve accepts connections (at most Config.MaxConns at once; more wait in
// the backlog) and runs each on its own goroutine, with its state (read
// buffer, answer buffer, request and answer slices, app calls) taken from a
// pool and given back when it closes (at most 256 closed connections' state
// is kept, so a burst of connections does not hold its memory for good).
// The Go runtime's netpoller is the event loop; reads and the vectored write
// are raw system calls made through it (rawio.go, see Performance). Config.Workers bounds how many connections compute at once (parse,
// route, build answers): a connection holds a worker slot only while it
// computes and gives it up to wait for a commit, an app's answer or the
// network, so with one worker many connections' commits still share one sync.
//
// # A batch's life
//
// A connection reads what arrived into its read buffer and answers every
// complete request in it as one batch (batch.go), in order:
//
//  1. parse a request (parse.go): request line and headers, with the framing
//     checks that stop request smuggling; a malformed head is answered (400,
//     411, 413, 417, 431 or 505) after the batch's earlier answers, and the
//     connection is closed, since where the next request starts is unknown;
//  2. route it: a document GET reads the batch's snapshot, pinned at the
//     batch's first read, so a request sent after its client received an
//     answer sees that answer's commit; a PUT commits its own transaction
//     (the batch's later reads see it) and is answered after the commit
//     returned, that is after the sync; an app call is submitted to the
//     runtime and left pending;
//  3. once no complete request is left (or the batch's bodies reach
//     Config.PayloadBudget: the rest waits for the next batch), wait for the
//     pending app calls in order and write their heads, so all the calls of a
//     batch are queued before the first is waited for and inputs share saves;
//  4. send every answer in one vectored write (net.Buffers, writev): heads
//     and small bodies are contiguous in the answer buffer, larger bodies are
//     sent from where they are; then release what the answers lent.
//
// Connection: close (and HTTP/1.0 without keep-alive) closes after the
// answer; requests pipelined after it are not answered. After a refusal
// that closes the connection, the server half-closes it and drains what the
// client still sends for at most a second (1 MiB), so the close does not
// reset the connection before the client has read the refusal.
//
// # Buffer ownership
//
// Everything a connection uses belongs to its goroutine. Parsed requests,
// and app calls' Name, Query and Body, point into the read buffer, which is
// not touched until the batch was sent. Documents up to 1 KiB are copied into
// the answer buffer from the pinned snapshot; larger ones are lent from the
// store's mapping (Snapshot.BorrowInto) and released only after the write that
// sends them returned, so a body goes out whole even if the document changes
// or compaction replaces the file meanwhile. App answers (Call.Out) belong to
// their call until it is Reset after the write. The read buffer is 4 KiB,
// grown to a request's whole size for a big body or head (against the
// payload budget) and dropped back to 4 KiB after it; grown buffers up to
// 1 MiB come from and go back to pools by size class (the allocator's
// classes up to 16 KiB, so a request a little over 4 KiB holds about 5 KiB,
// then doubling), so a stream of bodies over 4 KiB does not allocate one per
// request. While a connection holds a grown buffer its 4 KiB one is back in
// the pool.
//
// Other goroutines: the app runtime's owner writes a call's answer and hands
// it back through the call's channel; the store's commit leader writes
// commits; the Date clock refreshes the Date line and the coarse clock once
// a second behind an atomic pointer; Shutdown wakes connections by setting a
// past read deadline.
//
// # Limits and timeouts
//
// A head longer than Config.MaxHeaderBytes gets 431. Config.PayloadBudget
// bounds body bytes in memory: a request body larger than the budget gets 413
// from its head alone, without reading the body, and the connection closes;
// the read buffers all connections grow for bodies share the budget, and a
// body that does not fit beside the others gets 503 (retry later), closing
// its connection; a batch whose bodies reach the budget is cut and resumed
// in the next batch. (An app refuses work over its own limits itself; those
// answers come from the runtime.) Config.HeaderTimeout bounds
// the time from a request's first byte to the end of its head (408, close);
// Config.IdleTimeout closes an idle keep-alive connection and bounds a stalled
// body or answer. Deadlines are moved at most once a second, so timeouts are
// enforced to about a second and most batches touch no timer.
//
// Choices where HTTP/1.1 leaves room: up to four empty lines before a request
// line are skipped; bare LF line endings are refused (400),
// as are obsolete line folding, Content-Length with Transfer-Encoding, and
// differing Content-Lengths; chunked request bodies get 411 (send a
// Content-Length); the absolute form of a target gets 400; a missing Host is
// accepted, two Host headers are not; Expect: 100-continue is answered with
// 100 Continue before the body is read, other expectations get 417.
//
// # Files
//
//	server.go   Config, Server: accepting, connection slots, pooling, Shutdown
//	conn.go     a connection's state, its read loop, deadlines, the vectored write
//	rbuf.go     a connection's read buffer: growth, pools, the payload budget
//	batch.go    a batch: parse, dispatch, wait for app calls, error answers
//	parse.go    the request parser (request line, headers, framing checks)
//	parse_fast.go  its fast path: one pass over a plain, complete head
//	parse_memo.go  the memo path: a document GET repeating the last plain head's tail
//	answer.go   status lines, answer heads, the cached Date line
//	docs.go     GET and PUT of documents, preconditions, store errors
//	keys.go     document keys and ETags
//	apps.go     app calls
//	rawio.go    reads and sends on the socket without the scheduler's syscall notice
//
// # Performance
//
// Findings behind the choices above, measured with the server on one CPU
// and the load (wrk) on the other, on a busy two-core machine, so as
// ratios within one session:
//
// Raw socket calls. net.Conn's Read and Write tell the scheduler they enter
// a system call. With one P, the runtime monitor (sysmon) was woken by
// syscalls after idle moments and retook the P from long loopback writes,
// then polled every 20 µs on the server's CPU: 17 % of the server's CPU on
// pipelined GETs. The connection's goroutine now calls read and sendmsg
// itself on the non-blocking socket, through syscall.RawConn for waiting
// and deadlines: +10-15 % pipelined GETs per server CPU-second. What is
// left of a pipelined batch of 16 GETs (perf record -e cpu-clock, 64
// connections, experiment 050): the send 36 % (a loopback send runs the
// client's TCP receive in the sender's softirq: 20 % alone), the read 9 %,
// epoll and the scheduler 13 %; in user space the store's lookup (the
// overlay's binary search of the seed's 65 log entries, comparing keys
// with bytes.Compare: up to 17 % of the samples), the parser about 10 %
// and the answer heads 5 %. Reads use recvfrom and a batch of small
// answers, one range of the answer buffer, goes by sendto (rawio.go), which
// skip the file layer and sendmsg's header copy: about 1 % (probe 915).
// The parser checks header values eight bytes at a time and takes plain
// keys whole (-7.4 % instructions per request).
//
// User-space instructions per pipelined GET (callgrind, probe 917; 64
// connections, depth 16): about 2,550 after the store's overlay heads
// (probe 916), about 1,740 now (-33 %). A plain head (token method, target
// without controls, HTTP/1.x, header values without tabs, all of it in the
// buffer) is parsed in one pass (parseFast: "GET " and Host compared as
// words, the target and the values eight bytes at a time; 870 -> 473
// instructions per request); anything else, blank lines, an incomplete or
// a malformed head, goes to the general parser from the start, which finds
// each line first and so answers exactly as before (the fast one is
// tested against it: TestParseFast_AsSlow, FuzzParseRequest). A document's
// head is one per-second prefix (status, Date, Content-Type,
// "Content-Length: ") and two short numbers (answerBody 416 -> 262). The
// store's read (Snapshot.Get, 476) is now the largest piece of user time.
// Timed against fasthttp in one run (experiment 052, 4 rounds at load 2-3):
// 3.12x per server CPU-second, before 2.55x. A pipelined batch's CPU
// (perf, 052): the kernel about 50 % (the send 37 %, of which the client's
// receive in the sender's softirq 20 %; the read 7 %; epoll 4 %), the
// scheduler 8 %, all of it per batch of 16, not per request.
//
// A client repeats its headers on every request of a connection, so the
// connection remembers the tail of the last plain head (from the space
// after the target to the blank line) and what parseFast made of it; a
// "GET /docs/<key>" with a plain key and the same tail is parsed with one
// comparison, and its key needs no decoding (headMemo: parse and key 570
// -> 230 instructions per request). A small document's answer is written
// straight into the answer buffer and joins the range of the answer
// before it (answerDoc: 330 -> 215). Per pipelined GET (callgrind, 64
// connections, depth 16): 1,833-1,865 -> 1,357-1,371 (-26 %); per
// keep-alive GET 4,312-4,405 -> 3,935. Of what is left, the store's read
// is 530 and the runtime's share (scheduler, poller, system calls) about
// 200.
//
// The read after a batch usually finds nothing (EAGAIN) and the goroutine
// parks: 0.9 empty reads per batch. It cannot be skipped by waiting for
// readiness first: the poller clears a connection's readiness before each
// wait (pollReset), so bytes that arrived while the batch was answered would
// have their edge-triggered event lost and the connection would hang. Only
// an epoll loop of our own (level-triggered, golang.org/x/sys/unix) avoids
// that read; from perf's shares it was estimated to save the empty read
// and the scheduler's share, about 10 % of pipelined CPU, while the
// kernel's send and read stay. Not done. On the AMD EPYC machine of
// experiments 130-131 (KVM, retpolines: the kernel 77 % of the samples,
// the scheduler's parks and wake-ups 10 %, probe 981) pipelined GETs read
// 2.76x fasthttp per server CPU-second, with pure-serve short of its CPU
// (4.5-4.7 of 5 s): the load generator on the other CPU was at its limit,
// and a server that is not saturated parks and wakes more per request.
// Once pure-load's response parser cost less (experiment 145) pure-serve
// came nearer saturation and read 3.03x (146, met in 4 of 7 rounds). Probe
// 982 then measured the 10 %
// instead of estimating it: toy servers with the same user work, one on
// its own level-triggered epoll loop with raw calls, one with a goroutine
// per connection on the runtime's poller, answered as many pipelined GETs
// per server CPU-second (0.99x) and the loop about 5 % more keep-alive
// ones. pure-serve itself came within 12 % of the toy on pipelined GETs
// and 1 % on keep-alive ones. So the loop is not the lever for CPU; it
// would drop the connections' goroutine stacks (1.1 MB at the peak of 64
// writers' PUTs, probe 980).
//
// Big bodies. Written from the lent mapping, a 1 MiB GET is the kernel's
// copy of it into the socket (copy_from_iter: 45-56 % of the server's CPU,
// sendmsg in all 97 %); net/http pays the same copy, so the write cannot
// do much better than net/http. Steady state takes no page faults on the
// mapping (perf: 0.02 per GET), so madvise or MAP_POPULATE would not help,
// and a 2 or 4 MiB SO_SNDBUF measured the same as autotuning, with the write
// and with sendfile. Config.SendfileMin (pure-serve --sendfile-min, 64 KiB
// by default) sends bodies from the store's file with sendfile(2) instead,
// by the value's location (store.Borrowed.Location, whose descriptor lives
// as long as the lent mapping): the socket holds the page cache's pages
// and the reader copies them out, so the server copies nothing. It does
// more of other work: a splice per 64 KiB, the pages' references, more
// segments and softirqs per answer (about 20 and 22-26 against 17 and 17).
// Experiment 050 measured it ahead of the write in every round, at load
// averages 2 to 8: 0.52-0.74 of the write's server CPU per answer, 1.35x
// to 2.21x net/http's 2xx per server CPU-s (the write 0.84x to 1.40x).
// Experiment 046 had measured the opposite (0.68x the write's 2xx per
// server CPU-s, load 2-3); what made it differ was not found. Over a real
// network interface the receiver's work is not on the server's CPU at all.
//
// Memory. Peak RSS on 64 B GETs from 64 connections with --data, built
// statically (CGO_ENABLED=0, as `just http` builds every server), is
// 6.0-6.5 MB, with an occasional 7.7-9.8 MB (a cgo build adds libc and the
// loader, about 1.5 MB, to every server). Against the net/http baseline
// built alone, as a developer's server would be, that is 0.54x its
// 11.8-12.1 MB (experiment 156; issue 11 asks at most 0.5x); experiments
// 061-143 read 0.49x against a baseline binary that also carried fasthttp's
// code, whose pages added 1.0-1.3 MB to its peak. Probe 1006 splits the
// peak: the binary's pages 3.8 MB, the runtime's own structures outside
// its heap arena about 1 MB, the heap arena (heap and goroutine stacks)
// 1.2-1.6 MB; heap profiling 40-150 KB of it (experiment 157: turning it
// off moved nothing measurable). Most of it is there before the load:
// 5.9 MB at rest after the harness's seed, of which about 0.5 MB is the
// collector's metadata from the first collection (experiment 159), and
// the 64 connections add 0.4 MB; net/http rests at 10.6-11.1 MB after the
// same seed and its load adds 0.8-1.3. The occasional high peaks were the
// seed's garbage left resident: the trimmer's collection, on the second P
// (pure-serve takes one with --data, see group commit below), could run
// before the connection had let go of the dropped 1 MiB buffer, and
// sync.Pool keeps what was put in it through one collection; the trim is
// now asked for once the buffer is dropped and collects twice: 12 of 12
// runs by hand peaked at 6.3-6.6 MB, but over about 100 runs since, 4
// still peaked near 9.5 MB. Those were the seed's 3 MiB freed but not
// returned (runtime/metrics: heap free 3.0-3.2 MB at rest, against under
// 50 KB in the others): the runtime's background scavenger, run between
// the trim's two collections, marked the heap chunk holding them as having
// nothing to scavenge while they lay above its search position, so the
// forced scavenge skipped them (stranded pages, trim.go; experiment 105).
// A trim now holds the background scavenger off (GOGC raised for the
// millisecond it takes) and returns memory after each collection: seed-only
// runs with more than 7.5 MB resident at rest, 6 of 100 before and 1 of 100
// after, interleaved. Holding the second P only while
// writes came in (a governor, experiments 061-064) had not removed the
// spike and cost 1 MiB GETs 3-18 % of their responses per server
// CPU-second (064: a goroutine in a long sendfile holds the only P until
// the runtime's monitor retakes it), so it was reverted. The rest:
// the binary's touched pages 3.6 MB,
// anonymous 2.5 MB, of which 64 connections' state (about 7 KiB each, the
// answer buffer grown only to what a batch needs), goroutine stacks 0.7 MB
// and the runtime. A connection waiting for its next request holds no read
// buffer (rest gives it back to a pool), and neither does one queued for
// a worker slot, which it takes before it reads. The store's commit buffer no longer stays at
// the 2 MiB the seed's 1 MiB document grew it to (store's keepBuf), and the
// wall-clock profile is encoded without github.com/google/pprof/profile,
// whose initialisation kept 0.55 MB resident in every run. An outsized
// request body (over the largest pooled read buffer, 1 MiB) leaves
// megabytes of garbage (its buffer, the store's copies) that a load which
// allocates nothing would keep resident until the runtime's forced
// collection two minutes later, so the trimmer (trim.go) collects and
// returns it once the buffer is dropped: 6.6 to 4.5 MB anonymous after the
// seed (experiment 046). Under durable PUTs the peak is far above the
// baseline's (51 MB against 14 MB in experiment 055): the faster server's
// documents grow 8x larger in the same time (each PUT prepends 16 B), and
// their read buffers, the store's group buffers, the overlay's entries and
// the collector's headroom scale with them. Under the same 18,000 PUTs on
// both sides (probe 930; the harness's put-64c-same) the peaks were about
// equal, 13.5 against 13.8 MB: pure-serve's binary maps 2.4 MB less, but
// the store's file mapping held pages read back (the folds' and GETs'),
// which the baseline, writing files it never maps, does not, and the heap
// under write churn 5.5-5.8 MB. Three changes took that to 9.5 MiB (0.70x
// net/http's; put-64c 2.26x against 3.03x before them; experiment 111):
// the store releases written pages a 256 KiB window behind the end and
// sweeps every MiB (cold.go); a PUT's transaction borrows the body from
// the read buffer (store.Tx.PutBorrowed) rather than copying it; and
// cmd/pure-serve runs with GOGC 50 when durable, so the collector's
// headroom is half the live heap. A fourth, a compaction streaming the new
// file through a 512 KiB buffer rather than building its log record whole,
// took put-64c's peak (VmHWM) from 23.9-30.5 MiB to 17.2-25.0 MiB in seven
// alternating passes each (probe 958; pure-serve compacts several times a
// second under it). With all four, experiment 115 read 0.63x net/http
// under the same PUTs and 1.53x under put-64c (0.85x and 2.44x for the
// code before them, in the same rounds), at the same PUT and POST rates.
// A GOMEMLIMIT of 6 MiB had halved PUT throughput (probe 930), so no
// limit is set. At the end of those 18,000 PUTs each writer's document is
// about 4.6 KB, over the 4 KiB read buffer: every connection held an 8 KiB
// grown buffer and its 4 KiB one while its commit waited (768 KiB of the
// live heap, probe 990). Grown buffers now come in the allocator's classes
// (4,864 bytes for such a request) and the 4 KiB one goes back to its pool
// meanwhile: 350-440 KiB live, peak RSS 248 KiB lower in 14 of 15 paired
// passes (probe 992), 9.3 -> 9.0 MiB in experiment 139 (0.67x -> 0.64x of
// net/http's; 0.67x against the baseline built alone, experiment 156).
// What is left is mostly not the host's (probes 989-991): the
// binary's pages, 3.7 MB resident from start (1.7 MB of it touched by the
// load); the goroutine stacks, 8 KiB for every connection because the
// store's commit leader (writeGroup's 1.5 KiB frame and its callees) runs
// on whichever connection's goroutine leads a group, where the host's own
// path needs 2 KiB; the Ms' stacks (48 KiB each of stack spans, 8-10
// threads); and the store's buffers. The --pprof listener is written without
// net/http, whose package initialisation touched 2.5 MB more of the binary
// in every run.
//
// Group commit with one P: fdatasync enters the scheduler's syscall state,
// and the P leaves a blocked fdatasync only when the runtime's monitor
// (sysmon) retakes it. While the device's syncs took milliseconds that was
// soon enough for the other connections' commits to queue behind the
// leader (039: about 17 PUTs per sync with GOMAXPROCS=1). With syncs of
// about 100 µs it is not: durable score POSTs from 64 connections saved
// 1.2 inputs per sync, 13,500 POSTs/s (experiment 055). So pure-serve runs
// with at least two Ps with --data (cmd/pure-serve, durableProcs): the
// thread in fdatasync sleeps in the kernel while the other P serves the
// connections, and 26 inputs share a sync, 80,900 POSTs/s on the same one
// CPU (25.6x the crash-safe net/http baseline, which a second P does not
// help). The monitor's polling is still paid while a sync blocks; only a
// sync that does not hold a P could avoid it.
package serve
