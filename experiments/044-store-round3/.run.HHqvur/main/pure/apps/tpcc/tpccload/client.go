package tpccload

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"

	"workbench/pure/app"
	"workbench/pure/apps/tpcc"
)

// conn is one terminal's keep-alive HTTP/1.1 connection.
type conn struct {
	host string
	c    net.Conn
	rd   *bufio.Reader
	req  []byte
	body []byte
}

// dial opens the connection to addr (HOST:PORT).
func dial(addr string, timeout time.Duration) (*conn, error) {
	c, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return nil, err
	}
	return &conn{host: addr, c: c, rd: bufio.NewReaderSize(c, 16<<10)}, nil
}

// close closes the connection.
func (c *conn) close() { c.c.Close() }

// do sends x and reads its answer: the status and the body (valid until
// the next do).
func (c *conn) do(x tpcc.Tx, timeout time.Duration) (int, []byte, error) {
	kind, name, query, body := x.Call()
	c.req = c.req[:0]
	if kind == app.Input {
		c.req = append(c.req, "POST /inputs/"...)
	} else {
		c.req = append(c.req, "GET /views/"...)
	}
	c.req = append(c.req, name...)
	if len(query) > 0 {
		c.req = append(append(c.req, '?'), query...)
	}
	c.req = append(c.req, " HTTP/1.1\r\nHost: "...)
	c.req = append(c.req, c.host...)
	if kind == app.Input {
		c.req = append(c.req, "\r\nContent-Type: application/json\r\nContent-Length: "...)
		c.req = strconv.AppendInt(c.req, int64(len(body)), 10)
	}
	c.req = append(c.req, "\r\n\r\n"...)
	c.req = append(c.req, body...)
	if timeout > 0 {
		c.c.SetDeadline(time.Now().Add(timeout))
	}
	if _, err := c.c.Write(c.req); err != nil {
		return 0, nil, err
	}
	return c.read()
}

// get sends GET path and reads its answer.
func (c *conn) get(path string, timeout time.Duration) (int, []byte, error) {
	c.req = append(append(append(append(c.req[:0], "GET "...), path...), " HTTP/1.1\r\nHost: "...), c.host...)
	c.req = append(c.req, "\r\n\r\n"...)
	c.c.SetDeadline(time.Now().Add(timeout))
	if _, err := c.c.Write(c.req); err != nil {
		return 0, nil, err
	}
	return c.read()
}

// errNoLength is an answer this client cannot frame.
var errNoLength = errors.New("an answer without Content-Length (this client reads only framed answers; is the server HTTP/1.1 with keep-alive?)")

// read reads one answer: status line, headers, a Content-Length body.
func (c *conn) read() (int, []byte, error) {
	line, err := c.rd.ReadSlice('\n')
	if err != nil {
		return 0, nil, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, nil, fmt.Errorf("bad status line %q", line)
	}
	status, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, nil, fmt.Errorf("bad status line %q", line)
	}
	length := -1
	for {
		h, err := c.rd.ReadSlice('\n')
		if err != nil {
			return 0, nil, err
		}
		h = bytes.TrimRight(h, "\r\n")
		if len(h) == 0 {
			break
		}
		name, val, ok := bytes.Cut(h, []byte(":"))
		if ok && bytes.EqualFold(name, []byte("Content-Length")) {
			if length, err = strconv.Atoi(string(bytes.TrimSpace(val))); err != nil {
				return 0, nil, fmt.Errorf("bad Content-Length %q", val)
			}
		}
	}
	if length < 0 {
		return 0, nil, errNoLength
	}
	if cap(c.body) < length {
		c.body = make([]byte, length)
	}
	c.body = c.body[:length]
	if _, err := io.ReadFull(c.rd, c.body); err != nil {
		return 0, nil, err
	}
	return status, c.body, nil
}
