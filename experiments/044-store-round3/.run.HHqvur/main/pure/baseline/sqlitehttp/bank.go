package sqlitehttp

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"workbench/pure/apps/bank"
	"workbench/pure/baseline/sqlite"
)

// Bank returns the handler of the bank app's views over b, a bank of
// accounts accounts (the found view's id space is twice that):
//
//	GET /views/per_branch ?from&count
//	GET /views/in_credit
//	GET /views/large      ?min&from&count
//	GET /views/ranks      ?from&count
//	GET /views/join       ?from&count
//	GET /views/field      ?cols=a,b&from&count
//	GET /views/found      ?n&step
//
// Answers are the app's bytes (JSON arrays, or a number); paging is the
// app's: from 0 and count 20 by default, count at most bank.MaxRows. A
// field that does not parse is 400 with what was wrong. It is safe for
// concurrent use, as b is.
func Bank(b *sqlite.Bank, accounts int) http.Handler {
	mux := http.NewServeMux()
	view := func(route string, answer func(q url.Values, from, count int) ([]byte, error)) {
		mux.HandleFunc("GET /views/"+route, func(w http.ResponseWriter, r *http.Request) {
			q := r.URL.Query()
			from, count, err := page(q, route)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			out, err := answer(q, from, count)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(out)
		})
	}
	view("per_branch", func(_ url.Values, from, count int) ([]byte, error) { return b.PerBranch(from, count) })
	view("in_credit", func(url.Values, int, int) ([]byte, error) { return b.InCredit() })
	view("ranks", func(_ url.Values, from, count int) ([]byte, error) { return b.Ranks(from, count) })
	view("join", func(_ url.Values, from, count int) ([]byte, error) { return b.Join(from, count) })
	mux.HandleFunc("GET /views/large", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		from, count, err := page(q, "large")
		var m int64
		if err == nil {
			m, err = integer(q, "large", "min")
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		reply(w, func() ([]byte, error) { return b.Large(m, from, count) })
	})
	mux.HandleFunc("GET /views/field", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		from, count, err := page(q, "field")
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		cols := []string{"id", "branch", "balance", "name", "kind", "opened"}
		if c := q.Get("cols"); c != "" {
			cols = strings.Split(c, ",")
		}
		for _, c := range cols {
			if !strings.Contains(",id,branch,balance,name,kind,opened,", ","+c+",") {
				http.Error(w, fmt.Sprintf("field: no column %q; use id, branch, balance, name, kind or opened", c), http.StatusBadRequest)
				return
			}
		}
		reply(w, func() ([]byte, error) { return b.Field(cols, from, count) })
	})
	mux.HandleFunc("GET /views/found", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		n, err := integer(q, "found", "n")
		var step int64
		if err == nil {
			step, err = integer(q, "found", "step")
		}
		if err == nil && (n < 0 || n > 1_000_000 || step < 0) {
			err = fmt.Errorf("found: n must be 0 to 1,000,000 and step 0 or more; got n=%d step=%d", n, step)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		reply(w, func() ([]byte, error) { return b.Found(n, step, accounts) })
	})
	return mux
}

// reply writes answer's bytes, or 500 with its error.
func reply(w http.ResponseWriter, answer func() ([]byte, error)) {
	out, err := answer()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

// page parses ?from= and ?count= as the app does.
func page(q url.Values, route string) (from, count int, err error) {
	f, err := integer(q, route, "from")
	if err != nil {
		return 0, 0, err
	}
	count = 20
	if q.Has("count") {
		c, err := integer(q, route, "count")
		if err != nil {
			return 0, 0, err
		}
		if c < 0 || c > bank.MaxRows {
			return 0, 0, fmt.Errorf("%s: field \"count\": %d is out of range; use 0 to %d", route, c, bank.MaxRows)
		}
		count = int(c)
	}
	if f < 0 {
		return 0, 0, fmt.Errorf("%s: field \"from\": %d is out of range; use 0 or more", route, f)
	}
	return int(min(f, 1<<40)), count, nil
}

// integer parses field name of q, 0 when it is missing.
func integer(q url.Values, route, name string) (int64, error) {
	s := q.Get(name)
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: field %s=%q is not an integer", route, name, s)
	}
	return v, nil
}
