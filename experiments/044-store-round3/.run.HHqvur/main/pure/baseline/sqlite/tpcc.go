package sqlite

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"workbench/pure/apps/tpcc"
)

// TPCC is TPC-C's five transactions on SQLite, each one SQL transaction
// of prepared statements, as a Go developer would write them: the same
// inputs (tpcc.Tx) and answers as the app, so a test can compare them
// transaction by transaction.
type TPCC struct {
	db *sql.DB
	st map[string]*sql.Stmt
}

// tpccSQL are the transactions' statements.
var tpccSQL = map[string]string{
	"w":          `SELECT w_tax, w_name FROM warehouse WHERE w_id = ?`,
	"w_ytd":      `UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?`,
	"d":          `SELECT d_tax, d_next_o_id, d_name FROM district WHERE d_w_id = ? AND d_id = ?`,
	"d_next":     `UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?`,
	"d_ytd":      `UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?`,
	"c_no":       `SELECT c_discount FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`,
	"c_id":       `SELECT c_id, c_balance, c_credit, c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`,
	"c_last":     `SELECT c_id, c_balance, c_credit, c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first, c_id`,
	"c_pay":      `UPDATE customer SET c_balance = ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1, c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`,
	"c_deliver":  `UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`,
	"o_ins":      `INSERT INTO orders VALUES(?,?,?,?,?,?,?,?)`,
	"no_ins":     `INSERT INTO new_order VALUES(?,?,?)`,
	"i":          `SELECT i_price FROM item WHERE i_id = ?`,
	"s":          `SELECT s_quantity, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM stock WHERE s_w_id = ? AND s_i_id = ?`,
	"s_upd":      `UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ? WHERE s_w_id = ? AND s_i_id = ?`,
	"ol_ins":     `INSERT INTO order_line VALUES(?,?,?,?,?,?,?,?,?,?)`,
	"h_ins":      `INSERT INTO history VALUES(?,?,?,?,?,?,?,?,?)`,
	"o_last":     `SELECT o_id, o_carrier_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1`,
	"ol_sum":     `SELECT COUNT(*), COALESCE(SUM(ol_amount), 0) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?`,
	"no_first":   `SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id LIMIT 1`,
	"no_del":     `DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?`,
	"o_carrier":  `UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?`,
	"o_cust":     `SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?`,
	"ol_deliver": `UPDATE order_line SET ol_delivery_d = ? WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?`,
	"districts":  `SELECT d_id FROM district WHERE d_w_id = ? ORDER BY d_id`,
	"stock_level": `SELECT COUNT(DISTINCT s_i_id) FROM order_line JOIN stock ON s_w_id = ol_w_id AND s_i_id = ol_i_id
		WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id >= ? AND ol_o_id < ? AND s_quantity < ?`,
}

// tpccSchema is the tables, each with its primary key (WITHOUT ROWID: the
// rows are kept in key order, as the app keeps them) and its indexes.
func tpccSchema() string {
	var b strings.Builder
	for _, d := range tpcc.Tables {
		fmt.Fprintf(&b, "CREATE TABLE %s(", d.Name)
		for _, c := range d.Cols {
			typ := "INTEGER"
			if tpcc.IsText(c) {
				typ = "TEXT"
			}
			fmt.Fprintf(&b, "%s %s NOT NULL, ", tpcc.ColName(c), typ)
		}
		var key []string
		for _, k := range d.Key {
			key = append(key, tpcc.ColName(d.Cols[k]))
		}
		fmt.Fprintf(&b, "PRIMARY KEY(%s)) WITHOUT ROWID;\n", strings.Join(key, ", "))
		for _, ix := range d.Indexes {
			fmt.Fprintf(&b, "CREATE INDEX %s_%s ON %s(%s);\n", d.Name, ix.Name, d.Name, strings.Join(ix.Columns, ", "))
		}
	}
	return b.String()
}

// OpenTPCC creates TPC-C's schema in db, loads the initial database at
// scale s from seed (the app's data, tpcc.Generate) and prepares the
// transactions.
func OpenTPCC(db *sql.DB, s tpcc.Scale, seed uint64) (*TPCC, error) {
	if _, err := db.Exec(tpccSchema()); err != nil {
		return nil, fmt.Errorf("sqlite tpcc: schema: %w", err)
	}
	tx, err := db.Begin()
	if err != nil {
		return nil, err
	}
	ins := map[string]*sql.Stmt{}
	args := make([]any, 21)
	err = tpcc.Generate(s, seed, func(table string, vals []tpcc.Value) error {
		st := ins[table]
		if st == nil {
			q := "INSERT INTO " + table + " VALUES(" + strings.TrimSuffix(strings.Repeat("?,", len(vals)), ",") + ")"
			if st, err = tx.Prepare(q); err != nil {
				return err
			}
			ins[table] = st
		}
		cols := def(table)
		for i, v := range vals {
			if tpcc.IsText(cols[i]) {
				args[i] = v.S
			} else {
				args[i] = v.I
			}
		}
		_, err := st.Exec(args[:len(vals)]...)
		return err
	})
	if err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("sqlite tpcc: loading: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	if _, err := db.Exec(`ANALYZE`); err != nil {
		return nil, err
	}
	t := &TPCC{db: db, st: map[string]*sql.Stmt{}}
	for name, q := range tpccSQL {
		if t.st[name], err = db.Prepare(q); err != nil {
			return nil, fmt.Errorf("sqlite tpcc: preparing %s: %w", name, err)
		}
	}
	return t, nil
}

func def(table string) []string {
	for _, d := range tpcc.Tables {
		if d.Name == table {
			return d.Cols
		}
	}
	return nil
}

// errRollback is New-Order's refusal of an unused item id.
var errRollback = errors.New("rolled back")

// Run runs one transaction and returns the app's status and answer for
// it (200 and the answer, or 404 for a rolled-back New-Order).
func (t *TPCC) Run(x tpcc.Tx) (int, string, error) {
	tx, err := t.db.Begin()
	if err != nil {
		return 0, "", err
	}
	var out string
	switch x.Kind {
	case tpcc.NewOrder:
		out, err = t.newOrder(tx, x)
	case tpcc.Payment:
		out, err = t.payment(tx, x)
	case tpcc.OrderStatus:
		out, err = t.orderStatus(tx, x)
	case tpcc.Delivery:
		out, err = t.delivery(tx, x)
	case tpcc.StockLevel:
		var n int64
		err = tx.Stmt(t.st["d"]).QueryRow(x.W, x.D).Scan(new(int64), &n, new(string))
		if err == nil {
			err = tx.Stmt(t.st["stock_level"]).QueryRow(x.W, x.D, max(0, n-20), n, x.Threshold).Scan(&n)
		}
		out = fmt.Sprint(n)
	}
	if errors.Is(err, errRollback) {
		return 404, "", tx.Rollback()
	}
	if err != nil {
		tx.Rollback()
		return 0, "", fmt.Errorf("sqlite tpcc %s: %w", x.Kind, err)
	}
	return 200, out, tx.Commit()
}

func (t *TPCC) newOrder(tx *sql.Tx, x tpcc.Tx) (string, error) {
	var wTax, dTax, next, disc int64
	var name string
	if err := tx.Stmt(t.st["w"]).QueryRow(x.W).Scan(&wTax, &name); err != nil {
		return "", err
	}
	if err := tx.Stmt(t.st["d"]).QueryRow(x.W, x.D).Scan(&dTax, &next, &name); err != nil {
		return "", err
	}
	if err := tx.Stmt(t.st["c_no"]).QueryRow(x.W, x.D, x.C).Scan(&disc); err != nil {
		return "", err
	}
	if _, err := tx.Stmt(t.st["d_next"]).Exec(x.W, x.D); err != nil {
		return "", err
	}
	local := int64(1)
	for _, l := range x.Lines {
		if l.W != x.W {
			local = 0
		}
	}
	if _, err := tx.Stmt(t.st["o_ins"]).Exec(x.W, x.D, next, x.C, x.Now, 0, len(x.Lines), local); err != nil {
		return "", err
	}
	if _, err := tx.Stmt(t.st["no_ins"]).Exec(x.W, x.D, next); err != nil {
		return "", err
	}
	sum := int64(0)
	dist := make([]string, 10)
	for n, l := range x.Lines {
		var price, q int64
		err := tx.Stmt(t.st["i"]).QueryRow(l.I).Scan(&price)
		if errors.Is(err, sql.ErrNoRows) {
			return "", errRollback
		}
		if err != nil {
			return "", err
		}
		if err := tx.Stmt(t.st["s"]).QueryRow(l.W, l.I).Scan(&q, &dist[0], &dist[1], &dist[2], &dist[3], &dist[4], &dist[5], &dist[6], &dist[7], &dist[8], &dist[9]); err != nil {
			return "", err
		}
		if q >= l.Q+10 {
			q -= l.Q
		} else {
			q = q - l.Q + 91
		}
		remote := int64(0)
		if l.W != x.W {
			remote = 1
		}
		if _, err := tx.Stmt(t.st["s_upd"]).Exec(q, l.Q, remote, l.W, l.I); err != nil {
			return "", err
		}
		amount := l.Q * price
		sum += amount
		if _, err := tx.Stmt(t.st["ol_ins"]).Exec(x.W, x.D, next, n+1, l.I, l.W, 0, l.Q, amount, dist[x.D-1]); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("%d %d", next, sum*(10000-disc)*(10000+wTax+dTax)/100_000_000), nil
}

// customer is the customer by id, or the middle one of those named last.
func (t *TPCC) customer(tx *sql.Tx, w, d, c int64, last string) (id, bal int64, credit, data string, err error) {
	if last == "" {
		err = tx.Stmt(t.st["c_id"]).QueryRow(w, d, c).Scan(&id, &bal, &credit, &data)
		return
	}
	rows, err := tx.Stmt(t.st["c_last"]).Query(w, d, last)
	if err != nil {
		return
	}
	type cust struct {
		id, bal      int64
		credit, data string
	}
	var all []cust
	for rows.Next() {
		var c cust
		if err = rows.Scan(&c.id, &c.bal, &c.credit, &c.data); err != nil {
			rows.Close()
			return
		}
		all = append(all, c)
	}
	rows.Close()
	if len(all) == 0 {
		err = fmt.Errorf("no customer named %q", last)
		return
	}
	m := all[(len(all)-1)/2]
	return m.id, m.bal, m.credit, m.data, rows.Err()
}

func (t *TPCC) payment(tx *sql.Tx, x tpcc.Tx) (string, error) {
	var wTax, dTax, next int64
	var wName, dName string
	if err := tx.Stmt(t.st["w"]).QueryRow(x.W).Scan(&wTax, &wName); err != nil {
		return "", err
	}
	if err := tx.Stmt(t.st["d"]).QueryRow(x.W, x.D).Scan(&dTax, &next, &dName); err != nil {
		return "", err
	}
	if _, err := tx.Stmt(t.st["w_ytd"]).Exec(x.Amount, x.W); err != nil {
		return "", err
	}
	if _, err := tx.Stmt(t.st["d_ytd"]).Exec(x.Amount, x.W, x.D); err != nil {
		return "", err
	}
	id, bal, credit, data, err := t.customer(tx, x.CW, x.CD, x.C, x.Last)
	if err != nil {
		return "", err
	}
	bal -= x.Amount
	if credit == "BC" {
		data = tpcc.BadCreditData(id, x.CD, x.CW, x.D, x.W, x.Amount, data)
	}
	if _, err := tx.Stmt(t.st["c_pay"]).Exec(bal, x.Amount, data, x.CW, x.CD, id); err != nil {
		return "", err
	}
	if _, err := tx.Stmt(t.st["h_ins"]).Exec(tpcc.HistorySeq(x.Now), id, x.CD, x.CW, x.D, x.W, x.Now, x.Amount, wName+"    "+dName); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d %d", id, bal), nil
}

func (t *TPCC) orderStatus(tx *sql.Tx, x tpcc.Tx) (string, error) {
	id, bal, _, _, err := t.customer(tx, x.W, x.D, x.C, x.Last)
	if err != nil {
		return "", err
	}
	var o, carrier, lines, amount int64
	err = tx.Stmt(t.st["o_last"]).QueryRow(x.W, x.D, id).Scan(&o, &carrier)
	if err == nil {
		err = tx.Stmt(t.st["ol_sum"]).QueryRow(x.W, x.D, o).Scan(&lines, &amount)
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", err
	}
	return fmt.Sprintf("%d %d %d %d %d %d", id, bal, o, carrier, lines, amount), nil
}

func (t *TPCC) delivery(tx *sql.Tx, x tpcc.Tx) (string, error) {
	rows, err := tx.Stmt(t.st["districts"]).Query(x.W)
	if err != nil {
		return "", err
	}
	var ds []int64
	for rows.Next() {
		var d int64
		if err := rows.Scan(&d); err != nil {
			rows.Close()
			return "", err
		}
		ds = append(ds, d)
	}
	rows.Close()
	var out []string
	for _, d := range ds {
		var o, c, lines, sum int64
		err := tx.Stmt(t.st["no_first"]).QueryRow(x.W, d).Scan(&o)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return "", err
		}
		if _, err := tx.Stmt(t.st["no_del"]).Exec(x.W, d, o); err != nil {
			return "", err
		}
		if _, err := tx.Stmt(t.st["o_carrier"]).Exec(x.Carrier, x.W, d, o); err != nil {
			return "", err
		}
		if err := tx.Stmt(t.st["o_cust"]).QueryRow(x.W, d, o).Scan(&c); err != nil {
			return "", err
		}
		if _, err := tx.Stmt(t.st["ol_deliver"]).Exec(x.Now, x.W, d, o); err != nil {
			return "", err
		}
		if err := tx.Stmt(t.st["ol_sum"]).QueryRow(x.W, d, o).Scan(&lines, &sum); err != nil {
			return "", err
		}
		if _, err := tx.Stmt(t.st["c_deliver"]).Exec(sum, x.W, d, c); err != nil {
			return "", err
		}
		out = append(out, fmt.Sprintf("%d:%d", d, o))
	}
	return strings.Join(out, " "), nil
}

// Check checks consistency conditions 1 to 4 and answers "ok" or each
// failure, as the app's consistency view does.
func (t *TPCC) Check() (string, error) {
	queries := []string{
		`SELECT 'condition 1: warehouse ' || w_id FROM warehouse WHERE w_ytd != (SELECT SUM(d_ytd) FROM district WHERE d_w_id = w_id)`,
		`SELECT 'condition 2: district ' || d_w_id || '/' || d_id FROM district WHERE d_next_o_id - 1 != (SELECT MAX(o_id) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id)
			OR d_next_o_id - 1 != COALESCE((SELECT MAX(no_o_id) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id), d_next_o_id - 1)`,
		`SELECT 'condition 3: district ' || no_w_id || '/' || no_d_id FROM new_order GROUP BY no_w_id, no_d_id HAVING MAX(no_o_id) - MIN(no_o_id) + 1 != COUNT(*)`,
		`SELECT 'condition 4: district ' || d_w_id || '/' || d_id FROM district WHERE (SELECT SUM(o_ol_cnt) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id)
			!= (SELECT COUNT(*) FROM order_line WHERE ol_w_id = d_w_id AND ol_d_id = d_id)`,
	}
	var bad []string
	for _, q := range queries {
		rows, err := t.db.Query(q)
		if err != nil {
			return "", err
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				rows.Close()
				return "", err
			}
			bad = append(bad, s)
		}
		rows.Close()
	}
	if len(bad) == 0 {
		return "ok", nil
	}
	return strings.Join(bad, "\n"), nil
}

// Close closes the prepared statements (not the DB).
func (t *TPCC) Close() {
	for _, s := range t.st {
		s.Close()
	}
}
