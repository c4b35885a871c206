// Package app is Pure's app runtime: an app declares a keyed table, its
// inputs and its views in Go (an App value); the HTTP host derives the
// routes from the declaration and hands each request to the app's Runtime
// as a Call.
//
// # Declaring an app
//
// An App names its tables (Table, then Tables: each a text key and typed
// columns, kept in key order, with secondary indexes, IndexDef), its
// inputs (InputDef: typed fields from the query, and at most one from the
// request body, Text or JSON, with a Run function that reads and writes
// records) and its views (ViewDef: typed fields, the kind of answer —
// Number, Plain or Rows — and a Run function that reads). Every field is
// required; unknown, repeated or malformed fields are refused with 400
// naming the field, unknown inputs and views with 404 listing the known
// ones. A JSON body is decoded on the connection's goroutine, so the owner
// never parses. A Rows view also takes ?from= (default 0) and ?count=
// (default 20, at most 1000 or the view's MaxCount) and computes only that
// page; a view that declares its columns (Cols, some computed by
// functions) also takes ?cols=a,b and computes only those cells. See
// package scores for a whole app in 30 lines, package bank for views over
// indexes and package tpcc for nine tables.
//
// # Reading and writing
//
// Run gets a Turn. Turn.Table(name) gives a Tab: Get, Put, Delete by key;
// Scan by position; Range and RangeDesc by key; Index(name) for scans in
// the order of indexed values (Range, RangeDesc, Prefix, First, Last,
// Page by position, Count). Index values are given as a Key built with K:
// K().Int(w).Text(last) matches every entry starting with those values.
// Records are read by column name (Int, Text) or by position (IntAt,
// TextAt, with Tab.Col). A scan's callback must not write the table it
// scans.
//
// # The execution budget
//
// With Options.Budget set, every row a turn reads or writes is charged
// (budget.go); a turn over budget is stopped and answered 422, and its
// changes are undone like a failed input's. Without a budget nothing is
// counted: single-row operations skip the charge on one branch, and
// scans charge per chunk of rows, never per row or cell. The tag
// purenobudget builds the runtime without the charges at all, to measure
// what they cost.
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
// for company that is not there. The owner sleeps while it collects: the
// call that completes the count wakes it, and a timer checks every 100 µs
// whether any call came (so a pause is noticed 100-200 µs after the last
// call; in a process with nothing else to run Go's timers fire after
// about 1 ms, which the 1 ms bound covers).
//
// # Storage
//
// A record of table T of app A is the store key "a/A/T/<key>" (the key's
// bytes as given, at most store.MaxKeySize with the prefix), so the
// store's key order is the table's. In memory a table is a sequence of
// rows in key order, in sorted chunks of at most 512 (seq.go: an insert
// moves at most one chunk; each entry holds its key's first 16 bytes as
// two integers, the heads, which a lookup compares before the key's
// bytes), with running sums of the Int columns Turn.Sum has read; each
// index is such a sequence of (index key, row), kept in memory only and
// rebuilt when the table is loaded. A key keeps one row while it is in the
// table; the table finds it by key in a hash of the rows (rowmap.go: an
// open-addressing table whose slots hold the heads), so Get and a Put of
// an existing key do not search the sequence (nor the hash, for a record
// read from the table: it names its row, used while that row is live and
// of the record's key), and a Put gives the row new
// values (the old ones go to the undo log) without touching an index whose
// key did not change. All tables share one undo log, so an
// input writing several tables is undone and saved as a whole. A record's value is a
// format byte (1), then each column in declared order: Int as a zig-zag
// varint, Text as a uvarint length and the bytes. The app keeps nothing else in the store:
// sums of Int columns (Turn.Sum) are added up again by the first Sum
// after the table is loaded.
//
// # Pieces
//
//	call.go     the Call: the contract with the HTTP host
//	app.go      the declaration: App, Table, IndexDef, Field, InputDef,
//	            ViewDef, Col
//	query.go    parsing a call's query string and body into its fields
//	runtime.go  Start, Submit, Close, the owner loop and its gathering
//	batch.go    applying a batch, saving it, answering it
//	turn.go     Turn: what an app's Run sees; JSON rows, RowWriter
//	tab.go      Tab and Index: a turn's reads and writes of one table
//	budget.go   the execution budget and the scan loops that charge it
//	table.go    the record layer: records, tables in memory, the undo log
//	record.go   record encoding, loading
//	index.go    secondary indexes and their key encoding (Key)
//	seq.go      the chunked ordered sequence under tables and indexes
//	rowmap.go   the hash of a table's rows by key
//	errors.go   Error, status words, error answers
package app
