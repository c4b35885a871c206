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
// pool and given back when it closes. The Go runtime's netpoller is the event
// loop. Config.Workers bounds how many connections compute at once (parse,
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
// store's mapping (Snapshot.Borrow) and released only after the write that
// sends them returned, so a body goes out whole even if the document changes
// or compaction replaces the file meanwhile. App answers (Call.Out) belong to
// their call until it is Reset after the write. The read buffer is 4 KiB,
// grown to a request's whole size for a big body or head (against the
// payload budget) and dropped back to 4 KiB after it.
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
//	batch.go    a batch: parse, dispatch, wait for app calls, error answers
//	parse.go    the request parser (request line, headers, framing checks)
//	answer.go   status lines, answer heads, the cached Date line
//	docs.go     GET and PUT of documents, preconditions, store errors
//	keys.go     document keys and ETags
//	apps.go     app calls
package serve
