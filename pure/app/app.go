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
)

// String returns the type's name as the error messages use it.
func (t Type) String() string {
	switch t {
	case Int:
		return "integer"
	case Text:
		return "text"
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// Field is a named, typed value: a column of the table, or a field of an
// input or a view.
type Field struct {
	// Name is the field's name in queries and JSON rows.
	Name string
	// Type is Int or Text.
	Type Type
	// Body marks the input field carried by the request body instead of
	// the query string. At most one field of an input may set it, and it
	// must be Text. Columns and view fields ignore it.
	Body bool
}

// Table declares an app's keyed table: records with a text key and typed
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
	// DefaultCount, at most MaxCount) besides its own, and its Run writes
	// only the rows of that page.
	Rows
)

// Page sizes of Rows views.
const (
	// DefaultCount is the number of rows a Rows view answers when the query
	// gives no count.
	DefaultCount = 20
	// MaxCount is the largest count a Rows view accepts.
	MaxCount = 1000
)

// InputDef declares an input: `POST /inputs/<Name>?field=value`, a transaction
// on the table. Run reads its fields (Turn.Int, Turn.Text), reads and writes
// records (Turn.Get, Turn.Put, Turn.Delete) and sets the answer. Either
// all of its writes are kept or, if it returns an error, none.
type InputDef struct {
	// Name is the route segment after /inputs/.
	Name string
	// Fields are the input's fields: query fields, and at most one Body.
	Fields []Field
	// Run applies the input; an error (see Error) undoes its writes.
	Run func(t *Turn) error
}

// ViewDef declares a view: `GET /views/<Name>?field=value`, a read of the
// table. Run reads its fields and the table and sets an answer of the
// declared kind; it cannot write.
type ViewDef struct {
	// Name is the route segment after /views/.
	Name string
	// Fields are the view's query fields (besides from and count of a
	// Rows view).
	Fields []Field
	// Answer is the kind of answer: Number, Plain or Rows.
	Answer Answer
	// Run computes the answer.
	Run func(t *Turn) error
}

// App declares an app: its table, its inputs and its views. The host
// derives the routes from it; Start runs it.
type App struct {
	// Name is the app's name, a segment of its store keys.
	Name string
	// Table is the app's keyed table.
	Table Table
	// Inputs are the app's inputs, routed as /inputs/<name>.
	Inputs []InputDef
	// Views are the app's views, routed as /views/<name>.
	Views []ViewDef
}

// endpoint is an input or a view as the runtime uses it.
type endpoint struct {
	name   string
	kind   Kind
	fields []Field
	body   int // index of the body field, -1 if none
	answer Answer
	run    func(t *Turn) error
}

// compiled is a checked App with its endpoints.
type compiled struct {
	app    App
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
	if err := checkName("table", a.Table.Name); err != nil {
		return nil, err
	}
	if a.Table.Key == "" {
		return nil, fmt.Errorf("app %q: table %q has no Key name: name the key as answers show it", a.Name, a.Table.Name)
	}
	cols := append([]Field{{Name: a.Table.Key, Type: Text}}, a.Table.Columns...)
	if err := checkFields(fmt.Sprintf("app %q: table %q", a.Name, a.Table.Name), cols, false); err != nil {
		return nil, err
	}
	c := &compiled{app: a}
	seen := map[string]bool{}
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
		c.views = append(c.views, e)
	}
	c.inputList = list(c.inputs)
	c.viewList = list(c.views)
	return c, nil
}

func newEndpoint(app string, k Kind, name string, fields []Field, ans Answer, run func(*Turn) error, seen map[string]bool) (endpoint, error) {
	what := "input"
	if k == View {
		what = "view"
	}
	if err := checkName(what, name); err != nil {
		return endpoint{}, fmt.Errorf("app %q: %w", app, err)
	}
	where := fmt.Sprintf("app %q: %s %q", app, what, name)
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
		if k == View && ans == Rows && (f.Name == "from" || f.Name == "count") {
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
		if f.Type != Int && f.Type != Text {
			return fmt.Errorf("%s: field %q has no Type: use Int or Text", where, f.Name)
		}
		if f.Body && bodyAllowed {
			bodies++
			if f.Type != Text || bodies > 1 {
				return fmt.Errorf("%s: field %q: only one Text field may be the body", where, f.Name)
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
