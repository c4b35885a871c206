package tpcc

import (
	"encoding/json"
	"reflect"
	"testing"
)

// bodies are New-Order bodies the fast decoder takes or hands on to
// encoding/json: as json.Marshal writes them, spaced, reordered, and
// every kind it must refuse.
var bodies = []string{
	`{"w":1,"d":2,"c":3,"lines":[{"i":4,"w":1,"q":5},{"i":99999,"w":1,"q":10}],"now":6}`,
	` { "now" : -7 ,"lines":[ { "q":1 , "i":2,"w":3 } ] , "c":0,"d":10,"w":1 } ` + "\n\t\r",
	`{"w":1,"lines":[],"now":0}`, `{}`, `{"lines":[{}]}`, `{"w":-0}`, `{"w":123456789012345678}`,
	// handed on: encoding/json decides
	`{"w":1234567890123456789}`, `{"w":99999999999999999999}`, `{"w":1.0}`, `{"w":1e2}`, `{"w":01}`,
	`{"w":null}`, `{"lines":null}`, `{"W":1}`, `{"Lines":[{"I":1}]}`, `{"w":1,"w":2}`,
	`{"lines":[{"i":1,"w":2,"q":3}],"lines":[{"i":5}]}`, `{"lines":[{"i":1,"i":2}]}`,
	`{"kind":3}`, `{"x":[1,{"a":"b"}],"w":1}`, `{"w":"1"}`, `{"w":1,}`, `{"w":1 "d":2}`, `{"w":1}x`,
	`{"w":1}{}`, `{"w`, `{"w":`, `{"w":-}`, `{"lines":[{"i":1},]}`, `{"lines":[1]}`, `[]`, ``, `null`,
	`{"\u0077":5}`, `{"w":1,"lines":[{"i":1,"w":1,"q":1}` + "\x00" + `]}`,
}

// TestDecodeJSON_AsEncodingJSON: whenever DecodeJSON takes a body, it
// decodes it as encoding/json does, without error; bodies as json.Marshal
// writes them (every New-Order of a Mix) it takes.
func TestDecodeJSON_AsEncodingJSON(t *testing.T) {
	took := 0
	for _, b := range bodies {
		if checkDecode(t, []byte(b)) {
			took++
		}
	}
	if took != 7 {
		t.Errorf("DecodeJSON took %d of the bodies, want the first 7", took)
	}
	m := NewMix(Full, 1, 5)
	n := 0
	for range 2000 {
		tx := m.Next()
		if tx.Kind != NewOrder {
			continue
		}
		b, err := json.Marshal(tx)
		if err != nil {
			t.Fatal(err)
		}
		if !checkDecode(t, b) {
			t.Fatalf("DecodeJSON refused the Mix's body %s", b)
		}
		n++
	}
	if n < 500 {
		t.Fatalf("only %d New-Orders in 2000 transactions of the mix", n)
	}
}

// checkDecode reports whether DecodeJSON took b, failing t if it took it
// and decoded it otherwise than encoding/json.
func checkDecode(t *testing.T, b []byte) bool {
	t.Helper()
	var fast Tx
	if !fast.DecodeJSON(b) {
		return false
	}
	var want Tx
	if err := json.Unmarshal(b, &want); err != nil {
		t.Errorf("DecodeJSON took %q, which encoding/json refuses: %v", b, err)
	} else if !reflect.DeepEqual(fast, want) {
		t.Errorf("DecodeJSON(%q) = %+v, encoding/json: %+v", b, fast, want)
	}
	return true
}

// FuzzDecodeJSON: the same for any body (go test -fuzz=FuzzDecodeJSON).
func FuzzDecodeJSON(f *testing.F) {
	for _, b := range bodies {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkDecode(t, b) })
}
