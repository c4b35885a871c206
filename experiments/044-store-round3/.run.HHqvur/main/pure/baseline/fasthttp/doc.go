// Package fasthttp is the HTTP contract's documents and scoreboard written
// with github.com/valyala/fasthttp, the way a Go developer who picked
// fasthttp for speed writes them by hand: one handler switching on the
// path, the request's bytes read in place, JSON with encoding/json, and the
// storage of workbench/pure/baseline/kv in any of its three modes.
//
// It is a baseline for measuring pure-serve against: neither sabotaged nor
// tuned beyond fasthttp's documented usual settings (timeouts, a body
// limit).
//
// # Pieces
//
//	handler.go  Handler: the routes and their answers
//	serve.go    Serve: a fasthttp.Server on a listener until the context ends
package fasthttp
