package app

// Contract between the HTTP host (package serve) and the app runtime.
// The host parses a request into a Call, hands it to the app's Runtime
// with Submit, and writes the answer once Wait returns. The runtime owns
// the app's state on one goroutine (the owner); connection workers never
// touch it.

// Kind says whether a call reads a view or sends an input.
type Kind uint8

const (
	// View is `GET /views/<name>[?query]`: read-only, answered by the
	// owner from the app's state without a save of its own (it waits
	// only if inputs before it in its batch changed the state, for their
	// save).
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
	Out    []byte // the answer's body; on an error, the whole error text "<status word>: <what and what to do>\n"

	done chan struct{} // buffered, capacity 1; made on first Submit

	// Parsed by Submit on the caller's goroutine, read by the owner.
	ep    *endpoint
	args  []value // one per field of ep
	from  int     // a Rows view's page
	count int
	want  uint64 // a Rows view's columns to answer, a bit each
	json  any    // a JSON body, decoded
	buf   []byte // scratch for percent-decoding
}

// Wait blocks until the Call submitted with Runtime.Submit is answered.
// Call it once per Submit.
func (c *Call) Wait() { <-c.done }

// Reset clears the Call for reuse, keeping the capacity of Out (and of
// its own scratch space), so a reused Call answers without allocating.
func (c *Call) Reset() {
	*c = Call{Out: c.Out[:0], done: c.done, args: c.args[:0], buf: c.buf[:0]}
}

// answer releases the Call to its waiter. A Call run with Do has no
// channel unless it was submitted before: Do's caller is the owner and
// does not wait on one.
func (c *Call) answer() {
	if c.done != nil {
		c.done <- struct{}{}
	}
}
