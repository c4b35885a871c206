package nethttp

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

	"workbench/pure/baseline/kv"
)

// Handler returns the contract's routes over s.
func Handler(s *kv.Store) http.Handler {
	h := &handler{s: s}
	mux := http.NewServeMux()
	mux.HandleFunc("/docs/{key}", h.docs)
	mux.HandleFunc("/inputs/{name}", h.inputs)
	mux.HandleFunc("/views/{name}", h.views)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fail(w, http.StatusNotFound, "no route "+strconv.Quote(r.URL.Path)+"; routes: /docs/<key>, /inputs/score, /views/total, /views/leaders")
	})
	return mux
}

type handler struct{ s *kv.Store }

// fail answers the contract's error body.
func fail(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	io.WriteString(w, kv.ErrorBody(code, msg))
}

func text(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, body)
}

// readBody reads the whole request body, at most kv.MaxBody bytes; on
// failure it has answered.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, kv.MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			fail(w, http.StatusRequestEntityTooLarge, "body over the limit of "+strconv.Itoa(kv.MaxBody)+" bytes")
		} else {
			fail(w, http.StatusBadRequest, "reading the body: "+err.Error())
		}
		return nil, false
	}
	return body, true
}

func (h *handler) docs(w http.ResponseWriter, r *http.Request) {
	key := r.PathValue("key")
	if err := kv.CheckKey(key); err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		body, rev, ok := h.s.Get(key)
		if !ok {
			fail(w, http.StatusNotFound, "no document "+strconv.Quote(key)+"; PUT it first")
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("ETag", kv.ETag(rev))
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	case http.MethodPut:
		h.put(w, r, key)
	default:
		w.Header().Set("Allow", "GET, HEAD, PUT")
		fail(w, http.StatusMethodNotAllowed, r.Method+" /docs/<key>: use GET or PUT")
	}
}

func (h *handler) put(w http.ResponseWriter, r *http.Request, key string) {
	var ifMatch uint64
	check := false
	if v := r.Header.Get("If-Match"); v != "" {
		rev, err := kv.ParseIfMatch(v)
		if err != nil {
			fail(w, http.StatusBadRequest, err.Error())
			return
		}
		ifMatch, check = rev, true
	}
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	rev, err := h.s.Put(key, body, ifMatch, check)
	var stale *kv.StaleError
	switch {
	case err == nil:
		w.Header().Set("ETag", kv.ETag(rev))
		w.WriteHeader(http.StatusOK)
	case errors.As(err, &stale):
		fail(w, http.StatusPreconditionFailed, stale.Error()+"; GET it and retry with its ETag")
	case errors.Is(err, kv.ErrNotFound):
		fail(w, http.StatusPreconditionFailed, "no document "+strconv.Quote(key)+" to match; PUT without If-Match to create it")
	default:
		fail(w, http.StatusInternalServerError, err.Error())
	}
}

func (h *handler) inputs(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if name != "score" {
		fail(w, http.StatusNotFound, "no input "+strconv.Quote(name)+"; inputs: "+kv.InputNames)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		fail(w, http.StatusMethodNotAllowed, r.Method+" /inputs/score: use POST")
		return
	}
	q := r.URL.Query()
	points, err := kv.ParsePoints(q.Get("points"), q.Has("points"))
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	who := string(body)
	if err := kv.CheckName(who); err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	if _, err := h.s.AddScore(who, points); err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	text(w, who)
}

func (h *handler) views(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if name != "total" && name != "leaders" {
		fail(w, http.StatusNotFound, "no view "+strconv.Quote(name)+"; views: "+kv.ViewNames)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		fail(w, http.StatusMethodNotAllowed, r.Method+" /views/"+name+": use GET")
		return
	}
	if name == "total" {
		text(w, strconv.FormatInt(h.s.Total(), 10))
		return
	}
	q := r.URL.Query()
	from, count, err := kv.ParsePage(q.Get("from"), q.Has("from"), q.Get("count"), q.Has("count"))
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	out, err := json.Marshal(h.s.Leaders(from, count))
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}
