package app

// Contract between the HTTP host (package serve) and the app runtime.
// The host parses a request into a Call, hands it to the app's Runtime
// with Submit, and writes the answer once Wait returns. The runtime owns
// the app's state on one goroutine (the owner); connection workers never
// touch it.

// Kind says whether a call reads a view or sends an input.
type Kind uint8

const (
	// View is `GET /views/<name>[?query]`: read-only, answered from a
	// pinned snapshot without waiting for a save.
	View Kind = iota + 1
	// Input is `POST /inputs/<name>?field=value` with the body as the
	// text field: a transaction whose answer is released only after the
	// save that holds it is durable.
	Input
)

// Call is one request to an app and, once answered, its answer.
//
// Lifetime: the host fills Kind, Name, Query and Body, calls
// Runtime.Submit, and must not read or change the Call until Wait returns;
// Name, Query and Body must stay valid until then. After Wait the host
// reads Status, Type and Out, and may then Reset the Call and reuse it
// (Out's capacity is kept, so a reused Call answers without allocating).
// A Call must not be copied after first use.
type Call struct {
	Kind  Kind
	Name  string // the route segment after /views/ or /inputs/
	Query []byte // the raw query string without '?', still percent-encoded
	Body  []byte // the request body (an input's text field)

	Status int    // HTTP status of the answer: 200, 400, 404, 409, 413, 503
	Type   string // the answer's Content-Type
	Out    []byte // the answer's body; on an error, the error text

	done chan struct{} // buffered, capacity 1; made on first Submit
}
