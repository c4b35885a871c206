package app

import (
	"fmt"
	"strings"
)

// Type is the type of a table column or of a call's field.
type Type uint8

const (
	// Int is a signed 64-bit integer, written in decimal in queries and
	// answers.
	Int Type = iota + 1
	// Text is UTF-8 text. A call's text field that is not valid UTF-8 is
	// refused with 400.
	Text
	// JSON is an input's body holding a JSON value, decoded on the
	// connection's goroutine into the value the Field's New returns
	// (encoding/json rules; a value that is a BodyDecoder decodes the
	// bodies it expects itself); the input reads it with Turn.JSON. Only a
	// Body field may be JSON, and it needs New. Malformed JSON is refused
	// with 400 before the owner sees the call.
	JSON
)

// String returns the type's name as the error messages use it.
func (t Type) String() string {
	switch t {
	case Int:
		return "integer"
	case Text:
		return "text"
	case JSON:
		return "JSON"
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// Field is a named, typed value: a column of a table, or a field of an
// input or a view.
type Field struct {
	// Name is the field's name in queries and JSON rows.
	Name string
	// Type is Int, Text or (a body only) JSON.
	Type Type
	// Body marks the input field carried by the request body instead of
	// the query string. At most one field of an input may set it, and it
	// must be Text or JSON. Columns and view fields ignore it.
	Body bool
	// New returns a pointer to a fresh value that a JSON body is decoded
	// into (for example func() any { return new(Order) }). JSON only.
	New func() any
}

// IndexDef declares a secondary index of a table: its records ordered by
// the values of Columns (Int or Text columns of the table, in that
// order), then by key. Turns scan it through Tab.Index. The index is kept
// in memory only: it is rebuilt when the table is loaded.
type IndexDef struct {
	// Name names the index for Tab.Index.
	Name string
	// Columns are the indexed columns, most significant first.
	Columns []string
}

// Table declares a keyed table: records with a text key and typed
// columns, kept in key order (byte order of the keys). Records are stored
// under "a/<app>/<table>/<key>" (see doc.go for the encoding).
type Table struct {
	// Name is the table's name, a segment of its store keys.
	Name string
	// Key names the key in table answers (the first member of each JSON
	// row).
	Key string
	// Columns are the record's values, in stored order.
	Columns []Field
	// Indexes are the table's secondary indexes.
	Indexes []IndexDef
}

// Answer is what kind of answer a view gives.
type Answer uint8

const (
	// Number answers a decimal integer as text/plain.
	Number Answer = iota + 1
	// Plain answers text as text/plain.
	Plain
	// Rows answers a page of rows as a JSON array of objects. A Rows view
	// takes the query fields from (default 0) and count (default
	// DefaultCount, at most MaxCount or the view's own MaxCount) besides
	// its own, and its Run writes only the rows of that page.
	Rows
)

// Page sizes of Rows views.
const (
	// DefaultCount is the number of rows a Rows view answers when the query
	// gives no count.
	DefaultCount = 20
	// MaxCount is the largest count a Rows view accepts unless it declares
	// its own (ViewDef.MaxCount).
	MaxCount = 1000
)

// InputDef declares an input: `POST /inputs/<Name>?field=value`, a transaction
// on the app's tables. Run reads its fields (Turn.Int, Turn.Text,
// Turn.JSON), reads and writes records (Turn.Get, Turn.Put, Turn.Delete,
// or Turn.Table for any table) and sets the answer. Either all of its
// writes are kept or, if it returns an error, none.
type InputDef struct {
	// Name is the route segment after /inputs/.
	Name string
	// Fields are the input's fields: query fields, and at most one Body.
	Fields []Field
	// Run applies the input; an error (see Error) undoes its writes.
	Run func(t *Turn) error
}

// Col is a column of a Rows view's answer. A Col with neither Int nor
// Text is the view's table's column (or key) of the same Name, copied
// from the record given to Turn.AddRow, or, if the table has no such
// column, a cell of the Type given that only Turn.Row writes; otherwise
// Int (for an Int Col) or Text computes the cell from that record. A request may ask for some
// columns only (?cols=a,b): the others are not computed.
type Col struct {
	// Name is the member's name in the JSON rows and in ?cols=.
	Name string
	// Type is Int or Text; a table column's own type if left zero.
	Type Type
	// Int computes an Int cell.
	Int func(t *Turn, r Record) int64
	// Text computes a Text cell.
	Text func(t *Turn, r Record) string
}

// ViewDef declares a view: `GET /views/<Name>?field=value`, a read of the
// app's tables. Run reads its fields and the tables and sets an answer of
// the declared kind; it cannot write.
type ViewDef struct {
	// Name is the route segment after /views/.
	Name string
	// Fields are the view's query fields (besides from, count and cols of
	// a Rows view).
	Fields []Field
	// Answer is the kind of answer: Number, Plain or Rows.
	Answer Answer
	// Table names the table whose records a Rows view's AddRow takes
	// (default: App.Table).
	Table string
	// Cols are a Rows view's columns. Declaring them lets a request pick
	// some (?cols=a,b, default all); without them a row is the table's key
	// and every column, and ?cols= is refused.
	Cols []Col
	// MaxCount is the largest ?count= a Rows view accepts (default
	// MaxCount).
	MaxCount int
	// Run computes the answer.
	Run func(t *Turn) error
}

// App declares an app: its tables, its inputs and its views. The host
// derives the routes from it; Start runs it.
type App struct {
	// Name is the app's name, a segment of its store keys.
	Name string
	// Table is the app's first keyed table, the one Turn.Get, Turn.Put and
	// the other Turn methods without a table use.
	Table Table
	// Tables are more keyed tables, reached with Turn.Table(name).
	Tables []Table
	// Inputs are the app's inputs, routed as /inputs/<name>.
	Inputs []InputDef
	// Views are the app's views, routed as /views/<name>.
	Views []ViewDef
}

// endpoint is an input or a view as the runtime uses it.
type endpoint struct {
	name     string
	kind     Kind
	fields   []Field
	body     int // index of the body field, -1 if none
	answer   Answer
	run      func(t *Turn) error
	maxCount int
	table    int    // the table AddRow takes records of
	cols     []vcol // a Rows view's columns
	pickCols bool   // ?cols= is accepted
}

// vcol is a Rows view's column as AddRow writes it.
type vcol struct {
	name   string
	member []byte // `"name":`, escaped once
	typ    Type
	col    int // the record's column; -1 the key; -2 computed; -3 Row only
	fInt   func(t *Turn, r Record) int64
	fText  func(t *Turn, r Record) string
}

// compiled is a checked App with its endpoints.
type compiled struct {
	app    App
	tables []Table
	inputs []endpoint
	views  []endpoint
	// inputList and viewList are "a, b, c", for 404 answers.
	inputList, viewList string
}

// compile checks the declaration and builds its endpoints.
func compile(a App) (*compiled, error) {
	if err := checkName("app", a.Name); err != nil {
		return nil, err
	}
	c := &compiled{app: a, tables: append([]Table{a.Table}, a.Tables...)}
	seen := map[string]bool{}
	for _, t := range c.tables {
		if err := checkTable(a.Name, t, seen); err != nil {
			return nil, err
		}
	}
	seen = map[string]bool{}
	for _, in := range a.Inputs {
		e, err := newEndpoint(a.Name, Input, in.Name, in.Fields, 0, in.Run, seen)
		if err != nil {
			return nil, err
		}
		c.inputs = append(c.inputs, e)
	}
	seen = map[string]bool{}
	for _, v := range a.Views {
		if v.Answer < Number || v.Answer > Rows {
			return nil, fmt.Errorf("app %q: view %q: Answer must be Number, Plain or Rows", a.Name, v.Name)
		}
		e, err := newEndpoint(a.Name, View, v.Name, v.Fields, v.Answer, v.Run, seen)
		if err != nil {
			return nil, err
		}
		if err := c.viewCols(&e, v); err != nil {
			return nil, fmt.Errorf("app %q: view %q: %w", a.Name, v.Name, err)
		}
		c.views = append(c.views, e)
	}
	c.inputList = list(c.inputs)
	c.viewList = list(c.views)
	return c, nil
}

// checkTable checks a table's declaration and its indexes.
func checkTable(app string, t Table, seen map[string]bool) error {
	if err := checkName("table", t.Name); err != nil {
		return fmt.Errorf("app %q: %w", app, err)
	}
	where := fmt.Sprintf("app %q: table %q", app, t.Name)
	if seen[t.Name] {
		return fmt.Errorf("%s is declared twice", where)
	}
	seen[t.Name] = true
	if t.Key == "" {
		return fmt.Errorf("%s has no Key name: name the key as answers show it", where)
	}
	cols := append([]Field{{Name: t.Key, Type: Text}}, t.Columns...)
	if err := checkFields(where, cols, false); err != nil {
		return err
	}
	names := map[string]bool{}
	for _, ix := range t.Indexes {
		if ix.Name == "" || names[ix.Name] {
			return fmt.Errorf("%s: index name %q is empty or declared twice", where, ix.Name)
		}
		names[ix.Name] = true
		if len(ix.Columns) == 0 {
			return fmt.Errorf("%s: index %q has no Columns", where, ix.Name)
		}
		for _, col := range ix.Columns {
			if colIndex(cols, col) < 0 {
				return fmt.Errorf("%s: index %q: no column %q", where, ix.Name, col)
			}
		}
	}
	return nil
}

// viewCols resolves a view's table and columns.
func (c *compiled) viewCols(e *endpoint, v ViewDef) error {
	e.maxCount = MaxCount
	if v.MaxCount > 0 {
		e.maxCount = v.MaxCount
	}
	if v.Table != "" {
		e.table = -1
		for i, t := range c.tables {
			if t.Name == v.Table {
				e.table = i
			}
		}
		if e.table < 0 {
			return fmt.Errorf("no table %q", v.Table)
		}
	}
	if v.Answer != Rows {
		if len(v.Cols) > 0 {
			return fmt.Errorf("a view's Cols are for Rows views only; drop Cols or answer Rows")
		}
		return nil
	}
	t := c.tables[e.table]
	cols := append([]Field{{Name: t.Key, Type: Text}}, t.Columns...)
	decl := v.Cols
	if len(decl) == 0 {
		for _, f := range cols {
			decl = append(decl, Col{Name: f.Name})
		}
	} else {
		e.pickCols = true
	}
	if len(decl) > maxFields {
		return fmt.Errorf("%d Cols; at most %d", len(decl), maxFields)
	}
	names := map[string]bool{}
	for _, d := range decl {
		if d.Name == "" || strings.ContainsAny(d.Name, ",&=%+ ") || names[d.Name] {
			return fmt.Errorf("column name %q is empty, repeated or holds one of ,&=%%+ or a space", d.Name)
		}
		names[d.Name] = true
		vc := vcol{name: d.Name, typ: d.Type, fInt: d.Int, fText: d.Text, col: -2}
		vc.member = append(appendJSONString(nil, d.Name), ':')
		switch {
		case d.Int != nil && d.Text != nil:
			return fmt.Errorf("column %q has both Int and Text", d.Name)
		case d.Int != nil:
			vc.typ = Int
		case d.Text != nil:
			vc.typ = Text
		default:
			i := -1
			if d.Name != t.Key {
				i = colIndex(cols, d.Name)
			}
			switch {
			case i >= -1:
				vc.col, vc.typ = i, cols[i+1].Type
			case d.Type == Int || d.Type == Text:
				vc.col = -3 // written by Row only
			default:
				return fmt.Errorf("column %q is not a column of table %q; give it a Type (for Row) or an Int or Text function", d.Name, t.Name)
			}
		}
		e.cols = append(e.cols, vc)
	}
	return nil
}

func newEndpoint(app string, k Kind, name string, fields []Field, ans Answer, run func(*Turn) error, seen map[string]bool) (endpoint, error) {
	if err := checkName(kindWord(k), name); err != nil {
		return endpoint{}, fmt.Errorf("app %q: %w", app, err)
	}
	where := fmt.Sprintf("app %q: %s %q", app, kindWord(k), name)
	if seen[name] {
		return endpoint{}, fmt.Errorf("%s is declared twice", where)
	}
	seen[name] = true
	if run == nil {
		return endpoint{}, fmt.Errorf("%s has no Run function", where)
	}
	if err := checkFields(where, fields, k == Input); err != nil {
		return endpoint{}, err
	}
	e := endpoint{name: name, kind: k, fields: fields, body: -1, answer: ans, run: run}
	for i, f := range fields {
		if k == View && ans == Rows && (f.Name == "from" || f.Name == "count" || f.Name == "cols") {
			return endpoint{}, fmt.Errorf("%s: field %q is the page's own; rename it", where, f.Name)
		}
		if f.Body && k == Input {
			e.body = i
		}
	}
	return e, nil
}

// checkFields checks names (unique, non-empty), types and body marks.
func checkFields(where string, fields []Field, bodyAllowed bool) error {
	if len(fields) > maxFields {
		return fmt.Errorf("%s: %d fields; at most %d", where, len(fields), maxFields)
	}
	names := map[string]bool{}
	bodies := 0
	for _, f := range fields {
		if f.Name == "" || strings.ContainsAny(f.Name, "&=%+ ") {
			return fmt.Errorf("%s: field name %q must be non-empty without &=%%+ or spaces", where, f.Name)
		}
		if names[f.Name] {
			return fmt.Errorf("%s: field %q is declared twice", where, f.Name)
		}
		names[f.Name] = true
		switch {
		case f.Type == JSON && !(f.Body && bodyAllowed):
			return fmt.Errorf("%s: field %q: only an input's Body field may be JSON", where, f.Name)
		case f.Type == JSON && f.New == nil:
			return fmt.Errorf("%s: field %q: a JSON field needs New, returning a pointer to decode into", where, f.Name)
		case f.Type != Int && f.Type != Text && f.Type != JSON:
			return fmt.Errorf("%s: field %q has no Type: use Int or Text", where, f.Name)
		}
		if f.Body && bodyAllowed {
			bodies++
			if f.Type == Int || bodies > 1 {
				return fmt.Errorf("%s: field %q: only one Text or JSON field may be the body", where, f.Name)
			}
		}
	}
	return nil
}

// checkName accepts names usable as a route and key segment.
func checkName(what, name string) error {
	if name == "" {
		return fmt.Errorf("%s has no name", what)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return fmt.Errorf("%s name %q: use only a-z, 0-9, '_' and '-'", what, name)
		}
	}
	return nil
}

func list(es []endpoint) string {
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.name
	}
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

// find returns the endpoint named name among es.
func find(es []endpoint, name string) *endpoint {
	for i := range es {
		if es[i].name == name {
			return &es[i]
		}
	}
	return nil
}
