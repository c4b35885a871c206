package serve

import (
	"errors"

	"workbench/pure/store"
)

// doc answers GET, HEAD and PUT on /docs/<key>.
func (c *conn) doc(r *request, k []byte) {
	var err error
	c.key, err = appendKey(c.key[:len(c.s.prefix)], k) // the prefix stays in place
	if err != nil {
		c.errorAnswer(r, err, false)
		return
	}
	switch r.method {
	case methodGET, methodHEAD:
		c.getDoc(r, k)
	case methodPUT:
		c.putDoc(r, k)
	default:
		c.errorAnswer(r, &httpError{405, "documents take GET, HEAD and PUT"}, false)
	}
}

// getDoc answers a document from the batch's pinned snapshot: a small one
// copied into the answer buffer, a larger one lent from the store's
// mapping (Borrow) until the batch has been sent, so it goes out whole
// whatever happens to the document or the file meanwhile. With
// Config.SendfileMin set, one at least that long is sent from the store's
// file by its location when the store has a file and the socket is raw.
func (c *conn) getDoc(r *request, k []byte) {
	sn, err := c.pin()
	if err != nil {
		c.errorAnswer(r, storeError(err, k), false)
		return
	}
	val, rev, ok := sn.Get(c.key)
	if !ok {
		c.errorAnswer(r, &httpError{404, "no document " + quote(k, 200)}, false)
		return
	}
	if len(val) <= copyMax {
		c.answerDoc(r, val, rev)
		return
	}
	a := c.newAnswer(r)
	h := head{status: 200, ctype: typeBytes, etag: rev, doc: true}
	if !a.noBody {
		if c.nborrowed == len(c.borrowed) {
			c.borrowed = append(c.borrowed, new(store.Borrowed))
		}
		b := c.borrowed[c.nborrowed]
		sn.BorrowInto(b, c.key) // present: the same snapshot just found it
		c.nborrowed++
		val = b.Bytes()
		c.answerBody(a, &h, val)
		if c.s.sendfile > 0 && len(val) >= c.s.sendfile && c.rawOK {
			a.fd, a.off, a.file = b.Location() // false in RAM mode: then the body is written from the mapping
		}
		return
	}
	c.answerBody(a, &h, val)
}

// pin returns the batch's snapshot, taking it at the batch's first read.
// A request sent after its client received an answer arrives in a later
// read than the request answered, so a batch that pins after reading it
// sees that answer's commit.
func (c *conn) pin() (*store.Snapshot, error) {
	if c.snap == nil {
		if err := c.s.st.SnapshotInto(&c.snapBuf); err != nil {
			return nil, err
		}
		c.snap = &c.snapBuf
	}
	return c.snap, nil
}

// putDoc writes a document and answers its new revision once the commit
// is durable. If-Match "<rev>" (or *) and If-None-Match * make it
// conditional; a stale condition gets 412. The worker slot is given up
// while the commit waits, so concurrent connections' commits share syncs.
func (c *conn) putDoc(r *request, k []byte) {
	expect, star, err := condition(r)
	if err != nil {
		c.errorAnswer(r, err, false)
		return
	}
	var rev uint64
	if expect == 0 && r.ifMatch != nil && !star {
		err = store.ErrConflict // If-Match "0": no document has revision 0
	} else {
		c.unpin() // later reads in this batch see this write
		c.release()
		rev, err = c.commit(expect, star, r.body)
		c.acquire()
	}
	if err != nil {
		c.errorAnswer(r, storeError(err, k), false)
		return
	}
	a := c.newAnswer(r)
	h := head{status: 200, etag: rev}
	c.answerBody(a, &h, nil)
}

// condition reads a PUT's preconditions: the revision to expect, and
// whether If-Match is * (the document must exist).
func condition(r *request) (expect uint64, star bool, err error) {
	switch {
	case r.ifMatch != nil && r.ifNoneMatch != nil:
		return 0, false, &httpError{400, "both If-Match and If-None-Match; send one"}
	case r.ifNoneMatch != nil:
		if string(r.ifNoneMatch) != "*" {
			return 0, false, &httpError{400, "If-None-Match on PUT must be *; send If-Match \"<rev>\" to update a revision"}
		}
		return store.Absent, false, nil
	case r.ifMatch != nil:
		if string(r.ifMatch) == "*" {
			return 0, true, nil
		}
		rev, ok := parseETag(r.ifMatch)
		if !ok {
			return 0, false, &httpError{400, "malformed If-Match; send the ETag a GET or PUT answered, such as \"12\", or *"}
		}
		return rev, false, nil
	}
	return store.Any, false, nil
}

// commit puts c.key in its own transaction and commits it. body must
// not change until commit returns.
func (c *conn) commit(expect uint64, star bool, body []byte) (uint64, error) {
	tx, err := c.s.st.Begin()
	if err != nil {
		return 0, err
	}
	if star {
		_, cur, ok := tx.Get(c.key)
		if !ok {
			tx.Rollback()
			return 0, store.ErrConflict
		}
		expect = cur
	}
	// The body stays in the connection's read buffer until the answer, so
	// the transaction borrows it rather than copying it.
	if err := tx.PutBorrowed(c.key, body, expect); err != nil {
		tx.Rollback()
		return 0, err
	}
	return tx.Commit()
}

// storeError turns a store error about document k into an answer.
func storeError(err error, k []byte) *httpError {
	switch {
	case errors.Is(err, store.ErrConflict):
		return &httpError{412, "document " + quote(k, 200) + " is not at the revision If-Match names; GET it for its ETag and retry"}
	case errors.Is(err, store.ErrClosed):
		return &httpError{503, "the store is closed; the server is shutting down"}
	case errors.Is(err, store.ErrValueTooLarge):
		return &httpError{413, "document larger than the store's value limit"}
	case errors.Is(err, store.ErrReadOnly):
		return &httpError{503, "the store is read-only"}
	}
	return &httpError{500, "the store failed: " + err.Error() + "; the operator must check the disk and restart the server"}
}
