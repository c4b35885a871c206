// Package nethttp is the HTTP contract's documents and scoreboard written
// with the standard library's net/http, the way a careful Go developer
// writes them by hand: an http.ServeMux with Go 1.22 path patterns, one
// handler function per route, bodies read with io.ReadAll under
// http.MaxBytesReader, JSON with encoding/json, and the storage of
// workbench/pure/baseline/kv in any of its three modes.
//
// It is a baseline for measuring pure-serve against, not a product: it is
// neither sabotaged nor tuned beyond the usual (server timeouts and a body
// limit, nothing more).
//
// # Pieces
//
//	handler.go  Handler: the routes and their answers
//	serve.go    Serve: an http.Server on a listener until the context ends
package nethttp
