package fasthttp

import (
	"context"
	"errors"
	"net"
	"strconv"
	"time"

	"github.com/valyala/fasthttp"

	"workbench/pure/baseline/kv"
)

// Timeouts of the server, the usual choices of a careful deployment.
const (
	ReadTimeout = 10 * time.Second
	IdleTimeout = 120 * time.Second
)

// Serve serves the contract over s on ln until ctx ends, then shuts the
// server down, letting requests in progress finish (for at most 5 s).
func Serve(ctx context.Context, ln net.Listener, s *kv.Store) error {
	srv := &fasthttp.Server{
		Handler:            Handler(s),
		ReadTimeout:        ReadTimeout,
		IdleTimeout:        IdleTimeout,
		MaxRequestBodySize: kv.MaxBody,
		ErrorHandler:       parseError,
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.ShutdownWithContext(sctx)
	if serr := <-done; serr != nil && err == nil {
		err = serr
	}
	return err
}

// parseError answers a request fasthttp could not read: 413 for a body
// over the limit, 400 otherwise, with the contract's error body.
func parseError(ctx *fasthttp.RequestCtx, err error) {
	if errors.Is(err, fasthttp.ErrBodyTooLarge) {
		fail(ctx, fasthttp.StatusRequestEntityTooLarge, "body over the limit of "+strconv.Itoa(kv.MaxBody)+" bytes")
		return
	}
	fail(ctx, fasthttp.StatusBadRequest, "malformed request: "+err.Error())
}
