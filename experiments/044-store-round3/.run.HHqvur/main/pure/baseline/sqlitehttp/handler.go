package sqlitehttp

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"workbench/pure/apps/tpcc"
	"workbench/pure/baseline/sqlite"
)

// maxBody bounds a request body (a New-Order is under 1 KiB).
const maxBody = 64 << 10

// TPCC returns the handler of TPC-C's routes over t:
//
//	POST /inputs/new_order   JSON body {"w","d","c","lines":[{"i","w","q"}],"now"}
//	POST /inputs/payment     ?w&d&cw&cd&c&last&amount&now
//	POST /inputs/delivery    ?w&carrier&now
//	GET  /views/order_status ?w&d&c&last
//	GET  /views/stock_level  ?w&d&threshold
//	GET  /views/consistency  conditions 1 to 4: "ok" or each failure
//
// Answers are the app's: 200 and its text, 404 for a New-Order the
// specification rolls back or a row the input names that is not
// there, 400 for a request that does not parse, 500
// when SQLite fails. It is safe for concurrent use, as t is.
func TPCC(t *sqlite.TPCC) http.Handler {
	mux := http.NewServeMux()
	run := func(parse func(*http.Request, url.Values) (tpcc.Tx, error)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			x, err := parse(r, r.URL.Query())
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			status, out, err := t.Run(x)
			if errors.Is(err, sql.ErrNoRows) {
				http.Error(w, err.Error()+": no such row; nothing was changed", http.StatusNotFound)
				return
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			if status != http.StatusOK {
				http.Error(w, "new_order rolled back: an item id is unused", status)
				return
			}
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			io.WriteString(w, out)
		}
	}
	mux.HandleFunc("POST /inputs/new_order", run(func(r *http.Request, _ url.Values) (tpcc.Tx, error) {
		x := tpcc.Tx{Kind: tpcc.NewOrder}
		body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBody))
		if err != nil {
			return x, fmt.Errorf("new_order: reading the body: %w", err)
		}
		if err := json.Unmarshal(body, &x); err != nil {
			return x, fmt.Errorf("new_order: the body is not the JSON of a New-Order ({\"w\",\"d\",\"c\",\"lines\",\"now\"}): %w", err)
		}
		return x, nil
	}))
	mux.HandleFunc("POST /inputs/payment", run(func(_ *http.Request, q url.Values) (tpcc.Tx, error) {
		x := tpcc.Tx{Kind: tpcc.Payment, Last: q.Get("last")}
		return x, ints(q, "payment", map[string]*int64{"w": &x.W, "d": &x.D, "cw": &x.CW, "cd": &x.CD, "c": &x.C, "amount": &x.Amount, "now": &x.Now})
	}))
	mux.HandleFunc("POST /inputs/delivery", run(func(_ *http.Request, q url.Values) (tpcc.Tx, error) {
		x := tpcc.Tx{Kind: tpcc.Delivery}
		return x, ints(q, "delivery", map[string]*int64{"w": &x.W, "carrier": &x.Carrier, "now": &x.Now})
	}))
	mux.HandleFunc("GET /views/order_status", run(func(_ *http.Request, q url.Values) (tpcc.Tx, error) {
		x := tpcc.Tx{Kind: tpcc.OrderStatus, Last: q.Get("last")}
		return x, ints(q, "order_status", map[string]*int64{"w": &x.W, "d": &x.D, "c": &x.C})
	}))
	mux.HandleFunc("GET /views/stock_level", run(func(_ *http.Request, q url.Values) (tpcc.Tx, error) {
		x := tpcc.Tx{Kind: tpcc.StockLevel}
		return x, ints(q, "stock_level", map[string]*int64{"w": &x.W, "d": &x.D, "threshold": &x.Threshold})
	}))
	mux.HandleFunc("GET /views/consistency", func(w http.ResponseWriter, r *http.Request) {
		out, err := t.Check()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, out)
	})
	return mux
}

// ints parses the query fields named in dst as integers; a missing one is
// 0, as in the app (the customer id of a Payment by last name).
func ints(q url.Values, route string, dst map[string]*int64) error {
	for name, p := range dst {
		s := q.Get(name)
		if s == "" {
			continue
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("%s: field %s=%q is not an integer", route, name, s)
		}
		*p = v
	}
	return nil
}
