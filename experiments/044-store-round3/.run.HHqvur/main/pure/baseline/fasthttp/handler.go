package fasthttp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/valyala/fasthttp"

	"workbench/pure/baseline/kv"
)

// Handler returns the contract's routes over s.
func Handler(s *kv.Store) fasthttp.RequestHandler {
	h := &handler{s: s}
	return h.serve
}

type handler struct{ s *kv.Store }

const textPlain = "text/plain; charset=utf-8"

var (
	prefixDocs   = []byte("/docs/")
	prefixInputs = []byte("/inputs/")
	prefixViews  = []byte("/views/")
)

func (h *handler) serve(ctx *fasthttp.RequestCtx) {
	path := ctx.Path()
	switch {
	case bytes.HasPrefix(path, prefixDocs):
		h.docs(ctx, string(path[len(prefixDocs):]))
	case bytes.HasPrefix(path, prefixInputs):
		h.inputs(ctx, string(path[len(prefixInputs):]))
	case bytes.HasPrefix(path, prefixViews):
		h.views(ctx, string(path[len(prefixViews):]))
	default:
		fail(ctx, fasthttp.StatusNotFound, "no route "+strconv.Quote(string(path))+"; routes: /docs/<key>, /inputs/score, /views/total, /views/leaders")
	}
}

// fail answers the contract's error body.
func fail(ctx *fasthttp.RequestCtx, code int, msg string) {
	ctx.SetStatusCode(code)
	ctx.SetContentType(textPlain)
	ctx.SetBodyString(kv.ErrorBody(code, msg))
}

func (h *handler) docs(ctx *fasthttp.RequestCtx, key string) {
	if err := kv.CheckKey(key); err != nil {
		fail(ctx, fasthttp.StatusBadRequest, err.Error())
		return
	}
	switch {
	case ctx.IsGet() || ctx.IsHead():
		body, rev, ok := h.s.Get(key)
		if !ok {
			fail(ctx, fasthttp.StatusNotFound, "no document "+strconv.Quote(key)+"; PUT it first")
			return
		}
		ctx.SetContentType(textPlain)
		ctx.Response.Header.Set("ETag", kv.ETag(rev))
		ctx.SetBody(body)
	case ctx.IsPut():
		h.put(ctx, key)
	default:
		ctx.Response.Header.Set("Allow", "GET, HEAD, PUT")
		fail(ctx, fasthttp.StatusMethodNotAllowed, string(ctx.Method())+" /docs/<key>: use GET or PUT")
	}
}

func (h *handler) put(ctx *fasthttp.RequestCtx, key string) {
	var ifMatch uint64
	check := false
	if v := ctx.Request.Header.Peek("If-Match"); len(v) > 0 {
		rev, err := kv.ParseIfMatch(string(v))
		if err != nil {
			fail(ctx, fasthttp.StatusBadRequest, err.Error())
			return
		}
		ifMatch, check = rev, true
	}
	rev, err := h.s.Put(key, ctx.PostBody(), ifMatch, check) // Put copies the body
	var stale *kv.StaleError
	switch {
	case err == nil:
		ctx.Response.Header.Set("ETag", kv.ETag(rev))
	case errors.As(err, &stale):
		fail(ctx, fasthttp.StatusPreconditionFailed, stale.Error()+"; GET it and retry with its ETag")
	case errors.Is(err, kv.ErrNotFound):
		fail(ctx, fasthttp.StatusPreconditionFailed, "no document "+strconv.Quote(key)+" to match; PUT without If-Match to create it")
	default:
		fail(ctx, fasthttp.StatusInternalServerError, err.Error())
	}
}

func (h *handler) inputs(ctx *fasthttp.RequestCtx, name string) {
	if name != "score" {
		fail(ctx, fasthttp.StatusNotFound, "no input "+strconv.Quote(name)+"; inputs: "+kv.InputNames)
		return
	}
	if !ctx.IsPost() {
		ctx.Response.Header.Set("Allow", "POST")
		fail(ctx, fasthttp.StatusMethodNotAllowed, string(ctx.Method())+" /inputs/score: use POST")
		return
	}
	args := ctx.QueryArgs()
	points, err := kv.ParsePoints(string(args.Peek("points")), args.Has("points"))
	if err != nil {
		fail(ctx, fasthttp.StatusBadRequest, err.Error())
		return
	}
	who := string(ctx.PostBody())
	if err := kv.CheckName(who); err != nil {
		fail(ctx, fasthttp.StatusBadRequest, err.Error())
		return
	}
	if _, err := h.s.AddScore(who, points); err != nil {
		fail(ctx, fasthttp.StatusInternalServerError, err.Error())
		return
	}
	ctx.SetContentType(textPlain)
	ctx.SetBodyString(who)
}

func (h *handler) views(ctx *fasthttp.RequestCtx, name string) {
	if name != "total" && name != "leaders" {
		fail(ctx, fasthttp.StatusNotFound, "no view "+strconv.Quote(name)+"; views: "+kv.ViewNames)
		return
	}
	if !ctx.IsGet() && !ctx.IsHead() {
		ctx.Response.Header.Set("Allow", "GET, HEAD")
		fail(ctx, fasthttp.StatusMethodNotAllowed, string(ctx.Method())+" /views/"+name+": use GET")
		return
	}
	if name == "total" {
		ctx.SetContentType(textPlain)
		ctx.SetBody(strconv.AppendInt(nil, h.s.Total(), 10))
		return
	}
	args := ctx.QueryArgs()
	from, count, err := kv.ParsePage(string(args.Peek("from")), args.Has("from"), string(args.Peek("count")), args.Has("count"))
	if err != nil {
		fail(ctx, fasthttp.StatusBadRequest, err.Error())
		return
	}
	out, err := json.Marshal(h.s.Leaders(from, count))
	if err != nil {
		fail(ctx, fasthttp.StatusInternalServerError, err.Error())
		return
	}
	ctx.SetContentType("application/json")
	ctx.SetBody(out)
}
