// Package app is Pure's app runtime: an app declares a keyed table, its
// inputs and its views in Go (an App value); the HTTP host derives the
// routes from the declaration and hands each request to the app's Runtime
// as a Call.
//
// # Declaring an app
//
// An App names its Table (a text key and typed columns, kept in key
// order), its inputs (InputDef: typed fields, one of which may be the
// request body, and a Run function that reads and writes records) and its
// views (ViewDef: typed fields, the kind of answer — Number, Plain or
// Rows — and a Run function that reads). Every field is required;
// unknown, repeated or malformed fields are refused with 400 naming the
// field, unknown inputs and views with 404 listing the known ones. A Rows
// view also takes ?from= (default 0) and ?count= (default 20, at most
// 1000) and computes only that page. See package scores for a whole app in
// 30 lines.
//
// # The owner
//
// Start loads the table from the store into memory and starts one owner
// goroutine, the only one that touches the app's state. Connection
// workers call Submit, which resolves the name and parses the query and
// body on the caller's goroutine (answering bad calls at once), queues the
// Call, and returns; the worker then Waits.
//
// # A batch's life
//
// The owner takes every queued call as one batch and applies them in
// order (batch.go): an input runs against the table in memory with its
// changes logged, and if it fails its changes are undone, so each input is
// atomic; a view reads the table as the calls before it left it. Calls
// before the batch's first change are answered at once. If anything
// changed, the changed records go into ONE store transaction, committed
// (one fdatasync in durable mode, shared with the whole batch); only after
// Commit returns are the remaining calls answered. If the commit fails the
// table is rolled back to the last saved state and those calls get 503.
// A batch that changed nothing saves nothing and does not wait.
//
// After a saved batch the owner keeps collecting before it takes the next
// batch: until no call has arrived for 100 µs (Options.Pause), or 1 ms has
// passed since the save (Options.Gather), or as many calls are queued as
// the saved batch held (closed-loop clients are all back). A saved batch
// of one call is not followed by collecting: a lone client pays no pause.
// So many requests share one save when many are calling, and nobody waits
// for company that is not there. The owner waits by yielding its thread in
// a loop and reading the clock: a Go timer or sleep of 100 µs takes about
// 1.1 ms on this machine.
//
// # Storage
//
// A record of table T of app A is the store key "a/A/T/<key>" (the key's
// bytes as given, at most store.MaxKeySize with the prefix), so the
// store's key order is the table's. In memory the table is a slice of
// rows in key order (binary search; inserting a new key moves the rows
// after it) with running sums of its Int columns. A record's value is a
// format byte (1), then each column in declared order: Int as a zig-zag
// varint, Text as a uvarint length and the bytes. The app keeps nothing else in the store:
// sums of Int columns (Turn.Sum) are recomputed when the table is loaded.
//
// # Pieces
//
//	call.go     the Call: the contract with the HTTP host
//	app.go      the declaration: App, Table, Field, InputDef, ViewDef
//	query.go    parsing a call's query string and body into its fields
//	runtime.go  Start, Submit, Close, the owner loop and its gathering
//	batch.go    applying a batch, saving it, answering it
//	turn.go     Turn: what an app's Run sees; JSON rows
//	table.go    the record layer: records, the table in memory, undo log,
//	            record encoding, loading
//	errors.go   Error, status words, error answers
package app
