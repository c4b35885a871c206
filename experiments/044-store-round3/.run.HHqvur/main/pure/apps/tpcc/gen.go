package tpcc

import (
	"math/rand/v2"
)

// Scale is the size of the database of one warehouse. Full is the
// specification's; tests use smaller ones.
type Scale struct {
	Districts int // per warehouse (10)
	Customers int // per district (3,000)
	Items     int // items, and stock rows per warehouse (100,000)
	Orders    int // initial orders per district (3,000)
	NewOrders int // of which the last are undelivered (900)
}

// Full is TPC-C's size at W=1: 10 districts, 30,000 customers, 100,000
// items and stock rows, 30,000 orders with about 300,000 order lines, 9,000
// new orders.
var Full = Scale{Districts: 10, Customers: 3000, Items: 100_000, Orders: 3000, NewOrders: 900}

// Small is a scale for tests: the same shape, 1/100 of the rows.
var Small = Scale{Districts: 10, Customers: 30, Items: 1000, Orders: 30, NewOrders: 9}

// Warehouses is W: one warehouse, as the research measures.
const Warehouses = 1

// Value is one column's value in a generated row: I for an integer
// column, S for a text one.
type Value struct {
	I int64
	S string
}

// rng is the generator's random source with the specification's helpers.
type rng struct {
	*rand.Rand
	cLast, cID, olIID int64 // NURand's C constants, fixed by the seed
}

func newRNG(seed uint64) *rng {
	r := &rng{Rand: rand.New(rand.NewPCG(seed, 0x7cc))}
	r.cLast, r.cID, r.olIID = r.Int64N(256), r.Int64N(1024), r.Int64N(8192)
	return r
}

// between returns a uniform integer in [lo, hi].
func (r *rng) between(lo, hi int64) int64 { return lo + r.Int64N(hi-lo+1) }

// nurand is the specification's non-uniform random NURand(A, x, y).
func (r *rng) nurand(a, c, x, y int64) int64 {
	return ((r.between(0, a)|r.between(x, y))+c)%(y-x+1) + x
}

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// astring returns random alphanumeric text of lo to hi characters.
func (r *rng) astring(lo, hi int) string {
	b := make([]byte, lo+r.IntN(hi-lo+1))
	for i := 0; i < len(b); {
		u := r.Uint64()
		for j := 0; j < 10 && i < len(b); j++ {
			b[i] = alnum[u%62]
			u /= 62
			i++
		}
	}
	return string(b)
}

// nstring returns random digits, n of them.
func (r *rng) nstring(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + r.IntN(10))
	}
	return string(b)
}

// data returns i_data or s_data: 26 to 50 characters, 10 % of them with
// "ORIGINAL" somewhere.
func (r *rng) data() string {
	s := r.astring(26, 50)
	if r.IntN(10) == 0 {
		p := r.IntN(len(s) - 8)
		s = s[:p] + "ORIGINAL" + s[p+8:]
	}
	return s
}

var syllables = [10]string{"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"}

// LastName is the customer last name of number n (0 to 999): three
// syllables, one per decimal digit.
func LastName(n int64) string {
	return syllables[n/100] + syllables[n/10%10] + syllables[n%10]
}

// Generate calls row for every row of the initial database at scale s
// from seed, table by table: the values in the table's column order
// (Tables). vals is reused between calls.
func Generate(s Scale, seed uint64, row func(table string, vals []Value) error) error {
	r := newRNG(seed)
	v := make([]Value, 21)
	emit := func(table string, n int) error { return row(table, v[:n]) }
	for i := int64(1); i <= int64(s.Items); i++ {
		v[0], v[1], v[2], v[3], v[4] = Value{I: i}, Value{I: r.between(1, 10000)}, Value{S: r.astring(14, 24)}, Value{I: r.between(100, 10000)}, Value{S: r.data()}
		if err := emit("item", 5); err != nil {
			return err
		}
	}
	for w := int64(1); w <= Warehouses; w++ {
		address(r, v[2:7])
		v[0], v[1], v[7], v[8] = Value{I: w}, Value{S: r.astring(6, 10)}, Value{I: r.between(0, 2000)}, Value{I: 300_000_00}
		if err := emit("warehouse", 9); err != nil {
			return err
		}
		for i := int64(1); i <= int64(s.Items); i++ {
			v[0], v[1], v[2] = Value{I: w}, Value{I: i}, Value{I: r.between(10, 100)}
			for d := range 10 {
				v[3+d] = Value{S: r.astring(24, 24)}
			}
			v[13], v[14], v[15], v[16] = Value{}, Value{}, Value{}, Value{S: r.data()}
			if err := emit("stock", 17); err != nil {
				return err
			}
		}
		for d := int64(1); d <= int64(s.Districts); d++ {
			if err := district(r, s, w, d, v, emit); err != nil {
				return err
			}
		}
	}
	return nil
}

// address fills street 1, street 2, city, state and zip.
func address(r *rng, v []Value) {
	v[0], v[1], v[2] = Value{S: r.astring(10, 20)}, Value{S: r.astring(10, 20)}, Value{S: r.astring(10, 20)}
	v[3], v[4] = Value{S: r.astring(2, 2)}, Value{S: r.nstring(4) + "11111"}
}

// district generates a district and its customers, history, orders,
// order lines and new orders.
func district(r *rng, s Scale, w, d int64, v []Value, emit func(string, int) error) error {
	address(r, v[3:8])
	v[0], v[1], v[2], v[8], v[9], v[10] = Value{I: w}, Value{I: d}, Value{S: r.astring(6, 10)}, Value{I: r.between(0, 2000)}, Value{I: 30_000_00}, Value{I: int64(s.Orders) + 1}
	if err := emit("district", 11); err != nil {
		return err
	}
	names := int64(min(1000, s.Customers))
	for c := int64(1); c <= int64(s.Customers); c++ {
		last := c - 1
		if c > 1000 {
			last = r.nurand(255, r.cLast, 0, names-1)
		}
		credit := "GC"
		if r.IntN(10) == 0 {
			credit = "BC"
		}
		v[0], v[1], v[2], v[3], v[4], v[5] = Value{I: w}, Value{I: d}, Value{I: c}, Value{S: r.astring(8, 16)}, Value{S: "OE"}, Value{S: LastName(last)}
		address(r, v[6:11])
		v[11], v[12], v[13], v[14], v[15] = Value{S: r.nstring(16)}, Value{}, Value{S: credit}, Value{I: 50_000_00}, Value{I: r.between(0, 5000)}
		v[16], v[17], v[18], v[19], v[20] = Value{I: -10_00}, Value{I: 10_00}, Value{I: 1}, Value{}, Value{S: r.astring(300, 500)}
		if err := emit("customer", 21); err != nil {
			return err
		}
		seq := (w*100+d)*100_000 + c // history keys: unique per customer at load
		v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8] = Value{I: seq}, Value{I: c}, Value{I: d}, Value{I: w}, Value{I: d}, Value{I: w}, Value{}, Value{I: 10_00}, Value{S: r.astring(12, 24)}
		if err := emit("history", 9); err != nil {
			return err
		}
	}
	perm := r.Perm(s.Customers)
	firstNew := int64(s.Orders - s.NewOrders + 1)
	for o := int64(1); o <= int64(s.Orders); o++ {
		carrier, lines := int64(0), r.between(5, 15)
		if o < firstNew {
			carrier = r.between(1, 10)
		}
		v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7] = Value{I: w}, Value{I: d}, Value{I: o}, Value{I: int64(perm[o-1]) + 1}, Value{}, Value{I: carrier}, Value{I: lines}, Value{I: 1}
		if err := emit("orders", 8); err != nil {
			return err
		}
		for n := int64(1); n <= lines; n++ {
			amount := int64(0)
			if o >= firstNew {
				amount = r.between(1, 999_999)
			}
			v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9] = Value{I: w}, Value{I: d}, Value{I: o}, Value{I: n}, Value{I: r.between(1, int64(s.Items))}, Value{I: w}, Value{}, Value{I: 5}, Value{I: amount}, Value{S: r.astring(24, 24)}
			if err := emit("order_line", 10); err != nil {
				return err
			}
		}
		if o >= firstNew {
			v[0], v[1], v[2] = Value{I: w}, Value{I: d}, Value{I: o}
			if err := emit("new_order", 3); err != nil {
				return err
			}
		}
	}
	return nil
}
