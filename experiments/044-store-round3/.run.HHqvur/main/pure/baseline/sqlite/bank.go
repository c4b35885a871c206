package sqlite

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"workbench/pure/apps/bank"
)

// bankSchema is the bank's schema: integer ids (SQLite's rowid, its
// fastest key), one index on balance, as the Pure app has.
const bankSchema = `
CREATE TABLE branches(id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL);
CREATE TABLE accounts(id INTEGER PRIMARY KEY, branch INTEGER NOT NULL, balance INTEGER NOT NULL,
  name TEXT NOT NULL, kind TEXT NOT NULL, opened INTEGER NOT NULL);
CREATE INDEX accounts_balance ON accounts(balance);
`

// Bank is the bank app's queries on SQLite, as prepared statements. It is
// safe for concurrent use.
type Bank struct {
	db    *sql.DB
	stmts map[string]*sql.Stmt // the queries, fixed after OpenBank

	mu     sync.Mutex           // guards fields
	fields map[string]*sql.Stmt // Field's statements, by their SQL
}

// bankQueries are the bank's views in SQL. Ids are answered as the app's
// keys (8 digits); ties in balance go by id, descending, as the app's
// balance index read backwards gives them.
var bankQueries = map[string]string{
	"per_branch": `SELECT branch, COUNT(*), SUM(balance) FROM accounts GROUP BY branch ORDER BY branch LIMIT ? OFFSET ?`,
	"in_credit":  `SELECT COUNT(*) FROM accounts WHERE balance > 0`,
	"large": `SELECT printf('%08d', id), branch, balance, name, kind, opened FROM accounts
		WHERE balance >= ? ORDER BY balance DESC, id DESC LIMIT ? OFFSET ?`,
	"ranks": `SELECT printf('%08d', id), balance, RANK() OVER (ORDER BY balance DESC) FROM accounts
		ORDER BY balance DESC, id DESC LIMIT ? OFFSET ?`,
	"join": `SELECT printf('%08d', a.id), a.balance, a.branch, b.name, b.city
		FROM accounts a JOIN branches b ON b.id = a.branch ORDER BY a.id LIMIT ? OFFSET ?`,
	"found": `WITH RECURSIVE ids(i) AS (SELECT 0 WHERE ?1 > 0 UNION ALL SELECT i+1 FROM ids WHERE i+1 < ?1)
		SELECT COUNT(*) FROM ids JOIN accounts ON accounts.id = (ids.i * ?2) % ?3`,
}

// fieldCols are the columns the field query may select, as SQL.
var fieldCols = map[string]string{
	"id": "printf('%08d', id)", "branch": "branch", "balance": "balance",
	"name": "name", "kind": "kind", "opened": "opened",
}

// OpenBank creates the bank's schema in db, seeds it with the data of a
// bank of n accounts (bank.Data, the same as the app's) and prepares the
// queries.
func OpenBank(db *sql.DB, n int) (*Bank, error) {
	if _, err := db.Exec(bankSchema); err != nil {
		return nil, fmt.Errorf("sqlite bank: schema: %w", err)
	}
	as, bs := bank.Data(n)
	tx, err := db.Begin()
	if err != nil {
		return nil, err
	}
	for _, b := range bs {
		if _, err := tx.Exec(`INSERT INTO branches VALUES(?,?,?)`, b.ID, b.Name, b.City); err != nil {
			tx.Rollback()
			return nil, err
		}
	}
	ins, err := tx.Prepare(`INSERT INTO accounts VALUES(?,?,?,?,?,?)`)
	if err != nil {
		tx.Rollback()
		return nil, err
	}
	for _, a := range as {
		if _, err := ins.Exec(a.ID, a.Branch, a.Balance, a.Name, a.Kind, a.Opened); err != nil {
			tx.Rollback()
			return nil, err
		}
	}
	ins.Close()
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	if _, err := db.Exec(`ANALYZE`); err != nil {
		return nil, err
	}
	b := &Bank{db: db, stmts: map[string]*sql.Stmt{}}
	for name, q := range bankQueries {
		if b.stmts[name], err = db.Prepare(q); err != nil {
			return nil, fmt.Errorf("sqlite bank: preparing %s: %w", name, err)
		}
	}
	return b, nil
}

// Close closes the prepared statements (not the DB).
func (b *Bank) Close() {
	for _, s := range b.stmts {
		s.Close()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.fields {
		s.Close()
	}
}

// Row types, their fields in the app's column order, so encoding/json
// writes the app's JSON.
type (
	branchSum struct {
		Branch   int64 `json:"branch"`
		Accounts int64 `json:"accounts"`
		Total    int64 `json:"total"`
	}
	account struct {
		ID      string `json:"id"`
		Branch  int64  `json:"branch"`
		Balance int64  `json:"balance"`
		Name    string `json:"name"`
		Kind    string `json:"kind"`
		Opened  int64  `json:"opened"`
	}
	ranked struct {
		ID      string `json:"id"`
		Balance int64  `json:"balance"`
		Rank    int64  `json:"rank"`
	}
	joined struct {
		ID         string `json:"id"`
		Balance    int64  `json:"balance"`
		Branch     int64  `json:"branch"`
		BranchName string `json:"branch_name"`
		City       string `json:"city"`
	}
)

// PerBranch answers the per_branch view.
func (b *Bank) PerBranch(from, count int) ([]byte, error) {
	return collect(b.stmts["per_branch"], func(r *sql.Rows, v *branchSum) error { return r.Scan(&v.Branch, &v.Accounts, &v.Total) }, count, from)
}

// InCredit answers the in_credit view.
func (b *Bank) InCredit() ([]byte, error) { return number(b.stmts["in_credit"].QueryRow()) }

// Large answers the large view.
func (b *Bank) Large(minBalance int64, from, count int) ([]byte, error) {
	return collect(b.stmts["large"], func(r *sql.Rows, v *account) error {
		return r.Scan(&v.ID, &v.Branch, &v.Balance, &v.Name, &v.Kind, &v.Opened)
	}, minBalance, count, from)
}

// Ranks answers the ranks view.
func (b *Bank) Ranks(from, count int) ([]byte, error) {
	return collect(b.stmts["ranks"], func(r *sql.Rows, v *ranked) error { return r.Scan(&v.ID, &v.Balance, &v.Rank) }, count, from)
}

// Join answers the join view.
func (b *Bank) Join(from, count int) ([]byte, error) {
	return collect(b.stmts["join"], func(r *sql.Rows, v *joined) error {
		return r.Scan(&v.ID, &v.Balance, &v.Branch, &v.BranchName, &v.City)
	}, count, from)
}

// Found answers the found view: how many of n ids (i*step mod 2*accounts)
// are accounts.
func (b *Bank) Found(n, step int64, accounts int) ([]byte, error) {
	return number(b.stmts["found"].QueryRow(n, step, 2*int64(accounts)))
}

// fieldOrder is the accounts' column order: answers list the columns
// asked for in this order, as the app does.
var fieldOrder = []string{"id", "branch", "balance", "name", "kind", "opened"}

// Field answers the field view with the columns cols (the app's ?cols=).
// The statement is built for the columns asked.
func (b *Bank) Field(asked []string, from, count int) ([]byte, error) {
	var cols []string
	for _, c := range fieldOrder {
		if slices.Contains(asked, c) {
			cols = append(cols, c)
		}
	}
	exprs := make([]string, len(cols))
	for _, c := range asked {
		if fieldCols[c] == "" {
			return nil, fmt.Errorf("sqlite bank: no column %q", c)
		}
	}
	for i, c := range cols {
		exprs[i] = fieldCols[c]
	}
	q := "SELECT " + strings.Join(exprs, ", ") + " FROM accounts ORDER BY id LIMIT ? OFFSET ?"
	b.mu.Lock()
	st, ok := b.fields[q]
	if !ok {
		var err error
		if st, err = b.db.Prepare(q); err != nil {
			b.mu.Unlock()
			return nil, err
		}
		if b.fields == nil {
			b.fields = map[string]*sql.Stmt{}
		}
		b.fields[q] = st
	}
	b.mu.Unlock()
	rows, err := st.Query(count, from)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	out := []byte{'['}
	for n := 0; rows.Next(); n++ {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, '{')
		for i, c := range cols {
			if i > 0 {
				out = append(out, ',')
			}
			out = strconv.AppendQuote(out, c)
			out = append(out, ':')
			switch v := vals[i].(type) {
			case int64:
				out = strconv.AppendInt(out, v, 10)
			case string:
				j, _ := json.Marshal(v)
				out = append(out, j...)
			case []byte:
				j, _ := json.Marshal(string(v))
				out = append(out, j...)
			default:
				return nil, fmt.Errorf("sqlite bank: column %q is %T", c, v)
			}
		}
		out = append(out, '}')
	}
	return append(out, ']'), rows.Err()
}

// collect runs a query and encodes its rows as a JSON array.
func collect[T any](st *sql.Stmt, scan func(*sql.Rows, *T) error, args ...any) ([]byte, error) {
	rows, err := st.Query(args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]T, 0, 32)
	for rows.Next() {
		var v T
		if err := scan(rows, &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return json.Marshal(out)
}

// number answers a one-integer query as decimal text.
func number(r *sql.Row) ([]byte, error) {
	var n int64
	if err := r.Scan(&n); err != nil {
		return nil, err
	}
	return strconv.AppendInt(nil, n, 10), nil
}
