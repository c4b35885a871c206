package app

import (
	"fmt"

	"workbench/pure/store"
)

// Loader writes an app's records straight into a store, for seeding data
// before Start: Load passes one to its fill function.
type Loader struct {
	name   string
	tables []*table
	st     *store.Store
	tx     *store.Tx
	n      int
	kbuf   []byte
	vbuf   []byte
}

// loadBatch is the number of records Load commits at a time.
const loadBatch = 10_000

// Load calls fill to write records of app a into st, as a's tables keep
// them, committing every 10,000 records and at the end. Existing records
// with the same keys are replaced. Run it before Start: a running app does
// not see records loaded under it.
func Load(st *store.Store, a App, fill func(l *Loader) error) error {
	c, err := compile(a)
	if err != nil {
		return fmt.Errorf("app: bad declaration: %w", err)
	}
	l := &Loader{name: a.Name, st: st}
	var log []undo
	for _, t := range c.tables {
		l.tables = append(l.tables, newTable(a.Name, t, &log))
	}
	if err := fill(l); err != nil {
		if l.tx != nil {
			l.tx.Rollback()
		}
		return err
	}
	if l.tx != nil {
		if _, err := l.tx.Commit(); err != nil {
			return fmt.Errorf("app %q: loading: %w", a.Name, err)
		}
	}
	return nil
}

// New returns an empty record with key of table, to fill and Put.
func (l *Loader) New(table, key string) Record {
	for _, tb := range l.tables {
		if tb.name == table {
			return tb.newRecord(key)
		}
	}
	panic(fmt.Sprintf("app: Loader.New: app %q has no table %q", l.name, table))
}

// Put writes r into the store.
func (l *Loader) Put(r Record) error {
	var tb *table
	for _, t := range l.tables {
		if r.cols == &t.cols {
			tb = t
		}
	}
	if tb == nil {
		panic("app: Loader.Put of a record that is not from Loader.New")
	}
	if err := tb.checkKey(r.Key); err != nil {
		return err
	}
	if l.tx == nil {
		var err error
		if l.tx, err = l.st.Begin(); err != nil {
			return err
		}
	}
	l.kbuf = append(append(l.kbuf[:0], tb.prefix...), r.Key...)
	l.vbuf = tb.encode(l.vbuf[:0], &row{key: r.Key, vals: r.vals})
	if err := l.tx.Put(l.kbuf, l.vbuf, store.Any); err != nil {
		return fmt.Errorf("app %q: loading %q: %w", l.name, r.Key, err)
	}
	if l.n++; l.n%loadBatch == 0 {
		_, err := l.tx.Commit()
		l.tx = nil
		if err != nil {
			return fmt.Errorf("app %q: loading: %w", l.name, err)
		}
	}
	return nil
}
