package tpcc

import (
	"slices"
	"strconv"

	"workbench/pure/app"
)

// tpcc is one instance of the app: scratch space of its transactions,
// used only by the owner goroutine.
type tpcc struct {
	kb, kb2 []byte
	found   []app.Record
	items   []int64
	out     []byte
}

// Table handles of a turn.
var (
	tWarehouse, tDistrict, tCustomer = def("warehouse"), def("district"), def("customer")
	tHistory, tOrders, tNewOrder     = def("history"), def("orders"), def("new_order")
	tOrderLine, tItem, tStock        = def("order_line"), def("item"), def("stock")
)

// New returns the TPC-C app's declaration: the nine tables, the inputs
// new_order (a JSON body: Tx), payment and delivery, the views
// order_status and stock_level, and the view consistency (conditions 1
// to 4 of the specification, "ok" or what failed).
func New() app.App {
	a := &tpcc{}
	var tables []app.Table
	for _, d := range Tables {
		tables = append(tables, appTable(d))
	}
	i := func(name string) app.Field { return app.Field{Name: name, Type: app.Int} }
	return app.App{
		Name: "tpcc", Table: tables[0], Tables: tables[1:],
		Inputs: []app.InputDef{
			{Name: "new_order", Fields: []app.Field{{Name: "tx", Type: app.JSON, Body: true, New: func() any { return new(Tx) }}}, Run: a.newOrder},
			{Name: "payment", Fields: []app.Field{i("w"), i("d"), i("cw"), i("cd"), i("c"), {Name: "last", Type: app.Text}, i("amount"), i("now")}, Run: a.payment},
			{Name: "delivery", Fields: []app.Field{i("w"), i("carrier"), i("now")}, Run: a.delivery},
		},
		Views: []app.ViewDef{
			{Name: "order_status", Answer: app.Plain, Fields: []app.Field{i("w"), i("d"), i("c"), {Name: "last", Type: app.Text}}, Run: a.orderStatus},
			{Name: "stock_level", Answer: app.Number, Fields: []app.Field{i("w"), i("d"), i("threshold")}, Run: a.stockLevel},
			{Name: "consistency", Answer: app.Plain, Run: a.consistency},
		},
	}
}

// get reads the record of table d with key ids.
func (a *tpcc) get(t *app.Turn, d *TableDef, ids ...int64) (app.Record, bool) {
	a.kb = appendKey(a.kb[:0], d, ids...)
	return t.TableAt(d.at).GetBytes(a.kb)
}

// must reads a record that must exist, or refuses the turn with 404.
func (a *tpcc) must(t *app.Turn, d *TableDef, ids ...int64) (app.Record, error) {
	r, ok := a.get(t, d, ids...)
	if !ok {
		// a copy: ids itself must not escape, or every call of must
		// would allocate its variadic slice
		return r, app.Errorf(404, "no %s %v; nothing was changed", d.Name, slices.Clone(ids))
	}
	return r, nil
}

// put puts a new record of table d whose columns are ints, in order (the
// key columns among them), and text after them: the tables New-Order and
// Payment insert into have Int columns and at most one Text column, their
// last (order_line's ol_dist_info, history's h_data).
func (a *tpcc) put(t *app.Turn, d *TableDef, text string, ints ...int64) error {
	a.kb = a.kb[:0]
	for i, k := range d.Key {
		a.kb = appendDigits(a.kb, ints[k], d.Widths[i])
	}
	tab := t.TableAt(d.at)
	r := tab.New(string(a.kb))
	for i, v := range ints {
		if v != 0 { // a new record's columns are zero
			r.SetIntAt(i, v)
		}
	}
	if len(ints) < len(d.Cols) {
		r.SetTextAt(len(ints), text)
	}
	return tab.Put(r)
}

// keyRange returns in a.kb and a.kb2 the keys from ids... (inclusive) to
// the same with the last id plus one (exclusive). Range's bounds are
// strings it does not keep, so a caller converting these at the call
// (Range(string(lo), string(hi), ...)) allocates nothing.
func (a *tpcc) keyRange(d *TableDef, ids ...int64) (lo, hi []byte) {
	a.kb = appendKey(a.kb[:0], d, ids...)
	ids[len(ids)-1]++
	a.kb2 = appendKey(a.kb2[:0], d, ids...)
	ids[len(ids)-1]--
	return a.kb, a.kb2
}

// newOrder is the New-Order transaction (specification 2.4). An unused
// item id refuses it with 404 and undoes everything, as the
// specification's 1 % of rolled-back orders require.
func (a *tpcc) newOrder(t *app.Turn) error {
	tx := t.JSON("tx").(*Tx)
	w, d, c := tx.W, tx.D, tx.C
	if len(tx.Lines) < 1 || len(tx.Lines) > 15 {
		return app.Errorf(400, "an order has 1 to 15 lines; got %d", len(tx.Lines))
	}
	wr, err := a.must(t, tWarehouse, w)
	if err != nil {
		return err
	}
	dr, err := a.must(t, tDistrict, w, d)
	if err != nil {
		return err
	}
	cr, err := a.must(t, tCustomer, w, d, c)
	if err != nil {
		return err
	}
	o := dr.IntAt(dNext)
	dr.SetIntAt(dNext, o+1)
	if err := t.TableAt(tDistrict.at).Put(dr); err != nil {
		return err
	}
	local := int64(1)
	for _, l := range tx.Lines {
		if l.W != w {
			local = 0
		}
	}
	if err := a.put(t, tOrders, "", w, d, o, c, tx.Now, 0, int64(len(tx.Lines)), local); err != nil {
		return err
	}
	if err := a.put(t, tNewOrder, "", w, d, o); err != nil {
		return err
	}
	stock := t.TableAt(tStock.at)
	sum := int64(0)
	for n, l := range tx.Lines {
		ir, ok := a.get(t, tItem, l.I)
		if !ok {
			return app.Errorf(404, "item %d is not a valid item; the order is rolled back", l.I)
		}
		sr, err := a.must(t, tStock, l.W, l.I)
		if err != nil {
			return err
		}
		q := sr.IntAt(sQty)
		if q >= l.Q+10 {
			q -= l.Q
		} else {
			q = q - l.Q + 91
		}
		sr.SetIntAt(sQty, q)
		sr.SetIntAt(sYTD, sr.IntAt(sYTD)+l.Q)
		sr.SetIntAt(sOrderCnt, sr.IntAt(sOrderCnt)+1)
		if l.W != w {
			sr.SetIntAt(sRemote, sr.IntAt(sRemote)+1)
		}
		if err := stock.Put(sr); err != nil {
			return err
		}
		amount := l.Q * ir.IntAt(iPrice)
		sum += amount
		if err := a.put(t, tOrderLine, sr.TextAt(sDist01+int(d)-1), w, d, o, int64(n+1), l.I, l.W, 0, l.Q, amount); err != nil {
			return err
		}
	}
	total := sum * (10000 - cr.IntAt(cDiscount)) * (10000 + wr.IntAt(wTax) + dr.IntAt(dTax)) / 100_000_000
	a.out = appendInts(a.out[:0], o, total)
	t.SetTextBytes(a.out)
	return nil
}

// customer finds the customer by id, or by last name: the one in the
// middle (position ceil(n/2)) of those with that name, by first name.
func (a *tpcc) customer(t *app.Turn, w, d, c int64, last string) (app.Record, error) {
	if last == "" {
		return a.must(t, tCustomer, w, d, c)
	}
	a.found = a.found[:0]
	t.TableAt(tCustomer.at).Index("by_last").Prefix(app.K().Int(w).Int(d).Text(last), func(r app.Record) bool {
		a.found = append(a.found, r)
		return true
	})
	if len(a.found) == 0 {
		return app.Record{}, app.Errorf(404, "no customer named %q in district %d of warehouse %d", last, d, w)
	}
	return a.found[(len(a.found)-1)/2], nil
}

// payment is the Payment transaction (specification 2.5).
func (a *tpcc) payment(t *app.Turn) error {
	w, d, cw, cd, amount, now := t.Int("w"), t.Int("d"), t.Int("cw"), t.Int("cd"), t.Int("amount"), t.Int("now")
	if amount <= 0 {
		return app.Errorf(400, "amount must be positive; got %d", amount)
	}
	wr, err := a.must(t, tWarehouse, w)
	if err != nil {
		return err
	}
	dr, err := a.must(t, tDistrict, w, d)
	if err != nil {
		return err
	}
	cr, err := a.customer(t, cw, cd, t.Int("c"), t.Text("last"))
	if err != nil {
		return err
	}
	wr.SetIntAt(wYTD, wr.IntAt(wYTD)+amount)
	dr.SetIntAt(dYTD, dr.IntAt(dYTD)+amount)
	if err := t.TableAt(tWarehouse.at).Put(wr); err != nil {
		return err
	}
	if err := t.TableAt(tDistrict.at).Put(dr); err != nil {
		return err
	}
	bal := cr.IntAt(cBalance) - amount
	cr.SetIntAt(cBalance, bal)
	cr.SetIntAt(cYTD, cr.IntAt(cYTD)+amount)
	cr.SetIntAt(cPayCnt, cr.IntAt(cPayCnt)+1)
	cid := cr.IntAt(cID)
	if cr.TextAt(cCredit) == "BC" {
		cr.SetTextAt(cData, BadCreditData(cid, cd, cw, d, w, amount, cr.TextAt(cData)))
	}
	if err := t.TableAt(tCustomer.at).Put(cr); err != nil {
		return err
	}
	if err := a.put(t, tHistory, wr.TextAt(wName)+"    "+dr.TextAt(dName), HistorySeq(now), cid, cd, cw, d, w, now, amount); err != nil {
		return err
	}
	a.out = appendInts(a.out[:0], cid, bal)
	t.SetTextBytes(a.out)
	return nil
}

// BadCreditData is c_data after a payment by a customer with bad credit:
// the payment's ids and amount, then the old data, cut to 500 characters.
func BadCreditData(c, cd, cw, d, w, amount int64, old string) string {
	b := appendInts(make([]byte, 0, 600), c, cd, cw, d, w, amount)
	b = append(append(b, '|'), old...)
	return string(b[:min(len(b), 500)])
}

// appendInts appends the decimal integers vs, space-separated.
func appendInts(b []byte, vs ...int64) []byte {
	for i, v := range vs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, v, 10)
	}
	return b
}

// HistorySeq is the history key of the payment made at time now (loaded
// rows have keys below 10^9). The key has 18 digits, so now must stay
// below 10^18 - 10^9; two payments at the same now would share a row, so
// concurrent drivers give each transaction its own now (tpccload does).
func HistorySeq(now int64) int64 { return 1_000_000_000 + now }

// orderStatus is the Order-Status transaction (specification 2.6): the
// customer's balance and their last order with its lines. Answer:
// "c_id balance o_id carrier lines amount" (0s when there is no order).
func (a *tpcc) orderStatus(t *app.Turn) error {
	w, d := t.Int("w"), t.Int("d")
	cr, err := a.customer(t, w, d, t.Int("c"), t.Text("last"))
	if err != nil {
		return err
	}
	cid := cr.IntAt(cID)
	var o, carrier, lines, amount int64
	if or, ok := t.TableAt(tOrders.at).Index("by_customer").Last(app.K().Int(w).Int(d).Int(cid)); ok {
		o, carrier = or.IntAt(oID), or.IntAt(oCarrier)
		lo, hi := a.keyRange(tOrderLine, w, d, o)
		t.TableAt(tOrderLine.at).Range(string(lo), string(hi), func(r app.Record) bool {
			lines++
			amount += r.IntAt(olAmount)
			return true
		})
	}
	a.out = appendInts(a.out[:0], cid, cr.IntAt(cBalance), o, carrier, lines, amount)
	t.SetTextBytes(a.out)
	return nil
}

// delivery is the Delivery transaction (specification 2.7), in one
// turn: for each district, its oldest undelivered order is delivered.
// Answer: "d:o_id" of each delivered order, space-separated.
func (a *tpcc) delivery(t *app.Turn) error {
	w, carrier, now := t.Int("w"), t.Int("carrier"), t.Int("now")
	if carrier < 1 || carrier > 10 {
		return app.Errorf(400, "carrier must be 1 to 10; got %d", carrier)
	}
	newOrders, orders, lines := t.TableAt(tNewOrder.at), t.TableAt(tOrders.at), t.TableAt(tOrderLine.at)
	a.out = a.out[:0]
	for d := int64(1); ; d++ {
		if _, ok := a.get(t, tDistrict, w, d); !ok {
			break
		}
		lo, hi := a.keyRange(tNewOrder, w, d)
		var no app.Record
		found := false
		newOrders.Range(string(lo), string(hi), func(r app.Record) bool { no, found = r, true; return false })
		if !found {
			continue
		}
		o := no.IntAt(noOID)
		if err := newOrders.Delete(no.Key); err != nil {
			return err
		}
		or, err := a.must(t, tOrders, w, d, o)
		if err != nil {
			return err
		}
		or.SetIntAt(oCarrier, carrier)
		if err := orders.Put(or); err != nil {
			return err
		}
		a.found = a.found[:0]
		lo, hi = a.keyRange(tOrderLine, w, d, o)
		lines.Range(string(lo), string(hi), func(r app.Record) bool { a.found = append(a.found, r); return true })
		sum := int64(0)
		for _, ol := range a.found {
			sum += ol.IntAt(olAmount)
			ol.SetIntAt(olDelivery, now)
			if err := lines.Put(ol); err != nil {
				return err
			}
		}
		cr, err := a.must(t, tCustomer, w, d, or.IntAt(oCID))
		if err != nil {
			return err
		}
		cr.SetIntAt(cBalance, cr.IntAt(cBalance)+sum)
		cr.SetIntAt(cDelCnt, cr.IntAt(cDelCnt)+1)
		if err := t.TableAt(tCustomer.at).Put(cr); err != nil {
			return err
		}
		if len(a.out) > 0 {
			a.out = append(a.out, ' ')
		}
		a.out = strconv.AppendInt(append(strconv.AppendInt(a.out, d, 10), ':'), o, 10)
	}
	t.SetTextBytes(a.out)
	return nil
}

// stockLevel is the Stock-Level transaction (specification 2.8): how
// many distinct items of the district's last 20 orders have stock below
// the threshold.
func (a *tpcc) stockLevel(t *app.Turn) error {
	w, d, threshold := t.Int("w"), t.Int("d"), t.Int("threshold")
	dr, err := a.must(t, tDistrict, w, d)
	if err != nil {
		return err
	}
	next := dr.IntAt(dNext)
	a.kb = appendKey(a.kb[:0], tOrderLine, w, d, max(0, next-20))
	a.kb2 = appendKey(a.kb2[:0], tOrderLine, w, d, next)
	a.items = a.items[:0]
	t.TableAt(tOrderLine.at).Range(string(a.kb), string(a.kb2), func(r app.Record) bool { a.items = append(a.items, r.IntAt(olIID)); return true })
	slices.Sort(a.items)
	n := int64(0)
	for _, i := range slices.Compact(a.items) {
		if sr, ok := a.get(t, tStock, w, i); ok && sr.IntAt(sQty) < threshold {
			n++
		}
	}
	t.SetNumber(n)
	return nil
}
