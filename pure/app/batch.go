package app

import (
	"errors"
	"fmt"
)

// apply runs one batch on the owner goroutine and reports whether it
// saved. The steps:
//
//  1. Each call runs in order against the table in memory. An input's
//     changes are logged; if it fails they are undone at once, so each
//     input is atomic. A view reads the table as the calls before it left
//     it.
//  2. Calls before the first change are answered at once: they saw only
//     saved state. Later calls wait, since they saw unsaved changes.
//  3. If anything changed, every changed key is written into one store
//     transaction, which is committed (one sync in durable mode).
//  4. If the commit failed, the table is rolled back to the last saved
//     state, and every call that waited gets 503: its answer rested on
//     changes that were not kept.
//  5. Only now are the waiting calls answered.
func (r *Runtime) apply(batch []*Call) bool {
	changed := -1 // the first call answered after a change
	for i, c := range batch {
		mark := len(r.log)
		r.run(c)
		if c.ep.kind == Input {
			r.inputs.Add(1)
		} else {
			r.views.Add(1)
		}
		if changed < 0 {
			if len(r.log) == mark {
				c.answer() // step 2: c must not be touched any more
				continue
			}
			changed = i
		}
	}
	if changed < 0 {
		return false
	}
	err := r.save()
	r.saves.Add(1)
	if err != nil {
		r.failed.Add(1)
		rollback(&r.log, 0)
		msg := fmt.Sprintf("saving failed (%v); this request's changes were not kept; retry, and if it keeps failing restart the server", err)
		for _, c := range batch[changed:] {
			c.fail(503, msg)
		}
	}
	clear(r.log)
	r.log = r.log[:0]
	for _, c := range batch[changed:] {
		c.answer()
	}
	return err == nil
}

// save commits the batch's changes in one store transaction.
func (r *Runtime) save() error {
	tx, err := r.st.Begin()
	if err != nil {
		return err
	}
	r.epoch++
	err = stage(tx, r.log, r.epoch, &r.stg)
	if err != nil {
		tx.Rollback()
		return err
	}
	_, err = tx.Commit()
	return err
}

// run runs one call and sets its answer; a failed input's changes are
// undone.
func (r *Runtime) run(c *Call) {
	t := &r.turn
	t.c, t.ep, t.rows = c, c.ep, 0
	t.meter, t.left = t.budget > 0, t.budget
	c.Status, c.Type, c.Out = 200, typeText, c.Out[:0]
	if c.ep.answer == Rows {
		c.Type = typeJSON
		c.Out = append(c.Out, '[')
	}
	mark := len(r.log)
	if err := r.call(t); err != nil {
		rollback(&r.log, mark)
		var e *Error
		if errors.As(err, &e) {
			c.fail(e.Status, e.Msg)
		} else {
			c.fail(500, err.Error())
		}
	} else if c.ep.answer == Rows {
		c.Out = append(c.Out, ']')
	}
	t.c, t.ep = nil, nil
}

// call runs the app's function, turning a panic into an error.
func (r *Runtime) call(t *Turn) (err error) {
	defer func() {
		if p := recover(); p != nil {
			r.unwind()
			if _, ok := p.(overBudget); ok {
				err = t.overBudgetError()
				return
			}
			err = fmt.Errorf("app %q: %q panicked: %v; nothing was changed, and the app needs fixing", r.app.app.Name, t.ep.name, p)
		}
	}()
	return t.ep.run(t)
}
