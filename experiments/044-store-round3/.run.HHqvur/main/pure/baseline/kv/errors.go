package kv

import "errors"

// Errors of Put and AddScore; the HTTP baselines map them to status codes.
var (
	// ErrNotFound: If-Match named a revision of a document that does not
	// exist. PUT without If-Match to create it.
	ErrNotFound = errors.New("no such document")
	// ErrStale: If-Match named a revision other than the document's
	// current one. GET the document and retry with its ETag.
	ErrStale = errors.New("stale revision")
	// ErrClosed: the store was closed.
	ErrClosed = errors.New("store closed")
)

// StaleError is returned (wrapping ErrStale) when If-Match is stale; it
// carries the current revision so that the answer can name it.
type StaleError struct {
	// Key is the document's key.
	Key string
	// Have is the document's current revision, Want the one If-Match named.
	Have, Want uint64
}

// Error says which revision the document is at.
func (e *StaleError) Error() string {
	return "document \"" + e.Key + "\" is at revision " + uitoa(e.Have) + ", If-Match named " + uitoa(e.Want)
}

// Unwrap makes errors.Is(err, ErrStale) true.
func (e *StaleError) Unwrap() error { return ErrStale }
