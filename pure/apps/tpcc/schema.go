package tpcc

import (
	"fmt"
	"strings"

	"workbench/pure/app"
)

// TableDef is one TPC-C table as both the app and the SQLite baseline
// declare it: its columns (every id column included, in the
// specification's order) and which of them make the key.
type TableDef struct {
	Name    string
	Cols    []string // "name" for an integer, "name:s" for text
	Key     []int    // the key's columns, most significant first
	Widths  []int    // decimal digits of each key column in the app's keys
	Indexes []app.IndexDef
	at      int // the place in Tables, which is the app's (New), for Turn.TableAt; set by def
}

// Tables are TPC-C's nine tables. Money is in cents, taxes and discounts
// in basis points (1/10,000), times are a logical clock (an integer), and
// a NULL carrier or delivery date is 0.
var Tables = []TableDef{
	{Name: "warehouse", Cols: cols("w_id w_name:s w_street_1:s w_street_2:s w_city:s w_state:s w_zip:s w_tax w_ytd"), Key: []int{0}, Widths: []int{4}},
	{Name: "district", Cols: cols("d_w_id d_id d_name:s d_street_1:s d_street_2:s d_city:s d_state:s d_zip:s d_tax d_ytd d_next_o_id"), Key: []int{0, 1}, Widths: []int{4, 2}},
	{Name: "customer", Cols: cols("c_w_id c_d_id c_id c_first:s c_middle:s c_last:s c_street_1:s c_street_2:s c_city:s c_state:s c_zip:s c_phone:s c_since c_credit:s c_credit_lim c_discount c_balance c_ytd_payment c_payment_cnt c_delivery_cnt c_data:s"),
		Key: []int{0, 1, 2}, Widths: []int{4, 2, 5},
		Indexes: []app.IndexDef{{Name: "by_last", Columns: []string{"c_w_id", "c_d_id", "c_last", "c_first"}}}},
	{Name: "history", Cols: cols("h_seq h_c_id h_c_d_id h_c_w_id h_d_id h_w_id h_date h_amount h_data:s"), Key: []int{0}, Widths: []int{18}},
	{Name: "orders", Cols: cols("o_w_id o_d_id o_id o_c_id o_entry_d o_carrier_id o_ol_cnt o_all_local"),
		Key: []int{0, 1, 2}, Widths: []int{4, 2, 8},
		Indexes: []app.IndexDef{{Name: "by_customer", Columns: []string{"o_w_id", "o_d_id", "o_c_id", "o_id"}}}},
	{Name: "new_order", Cols: cols("no_w_id no_d_id no_o_id"), Key: []int{0, 1, 2}, Widths: []int{4, 2, 8}},
	{Name: "order_line", Cols: cols("ol_w_id ol_d_id ol_o_id ol_number ol_i_id ol_supply_w_id ol_delivery_d ol_quantity ol_amount ol_dist_info:s"),
		Key: []int{0, 1, 2, 3}, Widths: []int{4, 2, 8, 2}},
	{Name: "item", Cols: cols("i_id i_im_id i_name:s i_price i_data:s"), Key: []int{0}, Widths: []int{6}},
	{Name: "stock", Cols: cols("s_w_id s_i_id s_quantity s_dist_01:s s_dist_02:s s_dist_03:s s_dist_04:s s_dist_05:s s_dist_06:s s_dist_07:s s_dist_08:s s_dist_09:s s_dist_10:s s_ytd s_order_cnt s_remote_cnt s_data:s"),
		Key: []int{0, 1}, Widths: []int{4, 6}},
}

func cols(s string) []string { return strings.Fields(s) }

// ColName returns a column's name without its type mark.
func ColName(c string) string { name, _, _ := strings.Cut(c, ":"); return name }

// IsText reports whether a column holds text.
func IsText(c string) bool { return strings.HasSuffix(c, ":s") }

// def returns the table named name.
func def(name string) *TableDef {
	for i := range Tables {
		if Tables[i].Name == name {
			Tables[i].at = i
			return &Tables[i]
		}
	}
	panic("tpcc: no table " + name)
}

// col returns the position of column name of table.
func col(table, name string) int {
	for i, c := range def(table).Cols {
		if ColName(c) == name {
			return i
		}
	}
	panic(fmt.Sprintf("tpcc: table %s has no column %s", table, name))
}

// Column positions the transactions use.
var (
	wTax, wYTD, wName                       = col("warehouse", "w_tax"), col("warehouse", "w_ytd"), col("warehouse", "w_name")
	dTax, dYTD, dNext, dName                = col("district", "d_tax"), col("district", "d_ytd"), col("district", "d_next_o_id"), col("district", "d_name")
	cID, cCredit, cDiscount                 = col("customer", "c_id"), col("customer", "c_credit"), col("customer", "c_discount")
	cBalance, cYTD, cPayCnt, cDelCnt, cData = col("customer", "c_balance"), col("customer", "c_ytd_payment"), col("customer", "c_payment_cnt"), col("customer", "c_delivery_cnt"), col("customer", "c_data")
	oID, oCID, oCarrier, oOLCnt             = col("orders", "o_id"), col("orders", "o_c_id"), col("orders", "o_carrier_id"), col("orders", "o_ol_cnt")
	noOID                                   = col("new_order", "no_o_id")
	olIID, olDelivery, olAmount             = col("order_line", "ol_i_id"), col("order_line", "ol_delivery_d"), col("order_line", "ol_amount")
	iPrice                                  = col("item", "i_price")
	sQty, sDist01, sYTD, sOrderCnt, sRemote = col("stock", "s_quantity"), col("stock", "s_dist_01"), col("stock", "s_ytd"), col("stock", "s_order_cnt"), col("stock", "s_remote_cnt")
)

// appTable declares a TableDef for the app runtime: the key is the key
// columns' digits (so key order is numeric order), named "key".
func appTable(d TableDef) app.Table {
	t := app.Table{Name: d.Name, Key: "key", Indexes: d.Indexes}
	for _, c := range d.Cols {
		typ := app.Int
		if IsText(c) {
			typ = app.Text
		}
		t.Columns = append(t.Columns, app.Field{Name: ColName(c), Type: typ})
	}
	return t
}

// appendKey appends the app key of table d for the values of its key
// columns.
func appendKey(b []byte, d *TableDef, ids ...int64) []byte {
	for i, v := range ids {
		b = appendDigits(b, v, d.Widths[i])
	}
	return b
}

// zeros are the most leading zeros a key column has (history's 18).
const zeros = "000000000000000000"

// appendDigits appends v (0 <= v < 10^width) in width decimal digits:
// width zeros, then v's digits over them from the right, stopping once
// the rest is zeros (TPC-C's ids have many leading zeros in their
// widths: warehouse 1 is 0001).
func appendDigits(b []byte, v int64, width int) []byte {
	n := len(b)
	b = append(b, zeros[:width]...)
	for i := len(b) - 1; i >= n && v > 0; i-- {
		b[i] = byte('0' + v%10)
		v /= 10
	}
	return b
}
