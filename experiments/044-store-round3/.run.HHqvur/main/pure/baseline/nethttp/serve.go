package nethttp

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"workbench/pure/baseline/kv"
)

// Timeouts of the server, the usual choices of a careful deployment.
const (
	ReadHeaderTimeout = 10 * time.Second
	IdleTimeout       = 120 * time.Second
)

// Serve serves the contract over s on ln until ctx ends, then shuts the
// server down, letting requests in progress finish (for at most 5 s).
func Serve(ctx context.Context, ln net.Listener, s *kv.Store) error {
	return ServeHandler(ctx, ln, Handler(s))
}

// ServeHandler serves h on ln with this baseline's timeouts until ctx
// ends, then shuts the server down, letting requests in progress finish
// (for at most 5 s). Other net/http baselines (sqlitehttp) serve through it.
func ServeHandler(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: ReadHeaderTimeout, IdleTimeout: IdleTimeout}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
