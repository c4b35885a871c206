package sqlitehttp

import (
	"context"
	"net"
	"net/http"

	"workbench/pure/baseline/nethttp"
)

// Serve serves h on ln until ctx ends, then shuts the server down,
// letting requests in progress finish (for at most 5 s), with the
// timeouts of package nethttp's baseline (nethttp.ServeHandler).
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	return nethttp.ServeHandler(ctx, ln, h)
}
