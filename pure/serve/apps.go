package serve

import "workbench/pure/app"

// maxNames bounds a connection's cache of interned app names.
const maxNames = 64

// appCall submits a request to the app runtime: POST /inputs/<name> as an
// input, GET /views/<name> as a view. Its answer is written by finish, after
// every call of the batch was submitted. The runtime answers an unknown
// name 404 and a bad query 400.
func (c *conn) appCall(r *request, kind app.Kind, name []byte) {
	if c.s.apps == nil {
		c.errorAnswer(r, &httpError{404, "no app is served here (the server runs documents only); route " + quote(r.path, 200)}, false)
		return
	}
	if kind == app.View && r.method != methodGET && r.method != methodHEAD {
		c.errorAnswer(r, &httpError{405, "views take GET"}, false)
		return
	}
	if kind == app.Input && r.method != methodPOST {
		c.errorAnswer(r, &httpError{405, "inputs take POST"}, false)
		return
	}
	if c.ncalls == len(c.calls) {
		c.calls = append(c.calls, new(app.Call))
	}
	call := c.calls[c.ncalls]
	c.ncalls++
	call.Kind, call.Name, call.Query, call.Body = kind, c.intern(name), r.query, r.body
	c.s.apps.Submit(call)
	a := c.newAnswer(r)
	a.call = call
}

// intern returns name as a string without allocating for names this
// connection has seen before.
func (c *conn) intern(name []byte) string {
	if s, ok := c.names[string(name)]; ok { // no allocation: map lookup by []byte
		return s
	}
	s := string(name)
	if len(c.names) < maxNames {
		c.names[s] = s
	}
	return s
}
