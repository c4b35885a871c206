// Package tpcc is TPC-C at one warehouse (W=1) as an app of the app
// runtime: the specification's nine tables (schema.go) at its sizes
// (Full: 10 districts, 30,000 customers, 100,000 items and stock rows,
// 30,000 orders with about 300,000 order lines) or scaled down for tests
// (Small), generated from a seed (gen.go) as the specification's
// population rules say; its five transactions (app.go) as inputs and
// views; and a Mix (mix.go) that draws them in the specification's
// proportions from a seed.
//
//	POST /inputs/new_order         body: a Tx as JSON ({"w":1,"d":3,"c":7,"lines":[{"i":5,"w":1,"q":3}],"now":1})
//	POST /inputs/payment?w=&d=&cw=&cd=&c=&last=&amount=&now=
//	POST /inputs/delivery?w=&carrier=&now=
//	GET  /views/order_status?w=&d=&c=&last=
//	GET  /views/stock_level?w=&d=&threshold=
//	GET  /views/consistency        "ok", or each failed condition (1 to 4)
//
// Simplifications, each the same in the SQLite baseline: money is in
// cents and rates in basis points (integers, no rounding differences),
// times are a logical clock carried by each transaction (Tx.Now), NULL is
// 0, Delivery runs its ten districts in one transaction (as the
// specification allows in deferred mode, minus the queue), and the
// run-time NURand constant C for last names equals the load's. There is
// one warehouse, so every New-Order line is supplied locally and every
// Payment is by a customer of the district paid.
//
// Keys are the key columns in fixed-width decimal (warehouse 4 digits,
// district 2, customer 5, order 8, line 2, item 6), so key order is
// numeric order and a district's orders or an order's lines are a key
// range. Two secondary indexes serve the lookups the transactions need:
// customers by (w, d, last, first) and orders by (w, d, customer, id).
//
// The count workload (N transactions of the mix from a fixed seed, on one
// goroutine) is in package tpccwork; pure/baseline/sqlite runs the same
// transactions on SQLite and a test there compares every answer.
package tpcc
