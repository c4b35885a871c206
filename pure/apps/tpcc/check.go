package tpcc

import (
	"fmt"
	"strings"

	"workbench/pure/app"
)

// consistency checks the specification's consistency conditions 1 to 4
// (3.3.2.1-4) and answers "ok" or each failure, one a line:
//
//  1. each warehouse's w_ytd is the sum of its districts' d_ytd;
//  2. each district's d_next_o_id - 1 is its greatest o_id and, if it has
//     new orders, its greatest no_o_id;
//  3. each district's new orders are numbered without gaps: greatest
//     no_o_id - least no_o_id + 1 is their count;
//  4. each district's sum of o_ol_cnt is its count of order lines.
func (a *tpcc) consistency(t *app.Turn) error {
	var bad []string
	t.Table("warehouse").Range("", "", func(wr app.Record) bool {
		w := wr.IntAt(0)
		ytd := int64(0)
		for d := int64(1); ; d++ {
			dr, ok := a.get(t, tDistrict, w, d)
			if !ok {
				break
			}
			ytd += dr.IntAt(dYTD)
			bad = append(bad, a.district(t, w, d, dr.IntAt(dNext))...)
		}
		if ytd != wr.IntAt(wYTD) {
			bad = append(bad, fmt.Sprintf("condition 1: warehouse %d: w_ytd %d, districts' d_ytd sum %d", w, wr.IntAt(wYTD), ytd))
		}
		return true
	})
	if len(bad) == 0 {
		t.SetText("ok")
		return nil
	}
	t.SetText(strings.Join(bad, "\n"))
	return nil
}

// district checks conditions 2 to 4 of one district.
func (a *tpcc) district(t *app.Turn, w, d, next int64) []string {
	var bad []string
	lo, hi := a.keyRange(tOrders, w, d)
	maxO, olCnt := int64(0), int64(0)
	t.Table("orders").Range(string(lo), string(hi), func(r app.Record) bool {
		maxO = max(maxO, r.IntAt(oID))
		olCnt += r.IntAt(oOLCnt)
		return true
	})
	lo, hi = a.keyRange(tNewOrder, w, d)
	minNO, maxNO, nNO := int64(-1), int64(0), int64(0)
	t.Table("new_order").Range(string(lo), string(hi), func(r app.Record) bool {
		o := r.IntAt(noOID)
		if minNO < 0 {
			minNO = o
		}
		maxNO = max(maxNO, o)
		nNO++
		return true
	})
	lo, hi = a.keyRange(tOrderLine, w, d)
	lines := int64(0)
	t.Table("order_line").Range(string(lo), string(hi), func(app.Record) bool { lines++; return true })
	if next-1 != maxO || nNO > 0 && next-1 != maxNO {
		bad = append(bad, fmt.Sprintf("condition 2: district %d/%d: d_next_o_id-1 = %d, max(o_id) = %d, max(no_o_id) = %d", w, d, next-1, maxO, maxNO))
	}
	if nNO > 0 && maxNO-minNO+1 != nNO {
		bad = append(bad, fmt.Sprintf("condition 3: district %d/%d: new orders %d..%d but %d of them", w, d, minNO, maxNO, nNO))
	}
	if olCnt != lines {
		bad = append(bad, fmt.Sprintf("condition 4: district %d/%d: sum(o_ol_cnt) %d, order lines %d", w, d, olCnt, lines))
	}
	return bad
}
