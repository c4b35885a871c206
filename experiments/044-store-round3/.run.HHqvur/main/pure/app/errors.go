package app

import "fmt"

// Error is a refusal an app's Run returns: the HTTP status of the answer
// and what was wrong and what to do. The answer's body is
// "<status word>: <Msg>\n", for example
// "bad request: field \"name\": empty; send the name as the body\n".
// An error of another type answers 500.
type Error struct {
	Status int    // 400 bad request, 404 not found, 409 conflict, ...
	Msg    string // what was wrong and what to do, without the status word
}

// Error returns the answer's text without its final newline.
func (e *Error) Error() string { return StatusWord(e.Status) + ": " + e.Msg }

// Errorf returns an *Error with status and the formatted message.
func Errorf(status int, format string, args ...any) error {
	return &Error{Status: status, Msg: fmt.Sprintf(format, args...)}
}

// StatusWord returns the lower-case reason phrase of an HTTP status that
// starts an error answer ("bad request" for 400), or "status N".
func StatusWord(status int) string {
	switch status {
	case 200:
		return "ok"
	case 400:
		return "bad request"
	case 404:
		return "not found"
	case 405:
		return "method not allowed"
	case 409:
		return "conflict"
	case 412:
		return "precondition failed"
	case 413:
		return "content too large"
	case 422:
		return "unprocessable content"
	case 500:
		return "internal server error"
	case 503:
		return "service unavailable"
	}
	return fmt.Sprintf("status %d", status)
}

// Content types of answers.
const (
	typeText = "text/plain; charset=utf-8"
	typeJSON = "application/json"
)

// fail sets c's answer to an error: status and "<word>: msg\n".
func (c *Call) fail(status int, msg string) {
	c.Status = status
	c.Type = typeText
	c.Out = append(append(append(c.Out[:0], StatusWord(status)...), ": "...), msg...)
	c.Out = append(c.Out, '\n')
}
