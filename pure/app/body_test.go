package app_test

import (
	"bytes"
	"strconv"
	"testing"

	"workbench/pure/app"
)

// fastBody is a JSON body with its own decoder (app.BodyDecoder): it
// takes only the body {"n":7}, and leaves a mark in the values it refuses
// so that a test sees whether the runtime decoded into a fresh one.
type fastBody struct {
	N    int64 `json:"n"`
	Fast bool  `json:"-"`
}

func (b *fastBody) DecodeJSON(body []byte) bool {
	if bytes.Equal(body, []byte(`{"n":7}`)) {
		b.N, b.Fast = 7, true
		return true
	}
	b.N = -1 // a partial decode the runtime must not keep
	return false
}

// TestBodyDecoder: a body the decoder takes is its value; one it refuses
// is decoded by encoding/json into a fresh value, its errors answered as
// without a decoder.
func TestBodyDecoder(t *testing.T) {
	a := app.App{Name: "fast", Table: app.Table{Name: "t", Key: "k"},
		Inputs: []app.InputDef{{Name: "n", Fields: []app.Field{{Name: "b", Type: app.JSON, Body: true, New: func() any { return new(fastBody) }}},
			Run: func(t *app.Turn) error {
				b := t.JSON("b").(*fastBody)
				if b.Fast {
					t.SetText("fast " + strconv.FormatInt(b.N, 10))
				} else {
					t.SetNumber(b.N)
				}
				return nil
			}}}}
	rt := startRAM(t, a)
	want(t, rt, app.Input, "n", "", `{"n":7}`, 200, "fast 7")
	want(t, rt, app.Input, "n", "", `{"n": 7}`, 200, "7")
	want(t, rt, app.Input, "n", "", `{}`, 200, "0")
	want(t, rt, app.Input, "n", "", `{"n":"x"}`, 400, "bad request: field \"b\" (the body): json: cannot unmarshal string into Go struct field fastBody.n of type int64; send a JSON body of the input's shape\n")
}
