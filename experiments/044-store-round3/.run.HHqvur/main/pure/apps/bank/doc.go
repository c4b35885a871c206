// Package bank is the bank-queries app: accounts (an id, a branch, a
// balance in cents, the holder's name, the kind of account, the year it
// was opened) and their branches, seeded deterministically (Seed, Data)
// at any size (the research uses 10,000 and 100,000 accounts, one branch
// per 100), and seven views that read them:
//
//	GET /views/per_branch          rows: branch, accounts, total (sum of balances), by branch
//	GET /views/in_credit           number: accounts with balance > 0 (balance index)
//	GET /views/large?min=M         rows: accounts with balance >= M, largest first
//	                               (by the balance index; ties by id, descending)
//	GET /views/ranks               rows: id, balance, rank (1 + accounts with a larger
//	                               balance, as SQL's RANK()), largest first
//	GET /views/join                rows: id, balance, branch, branch_name, city, by id
//	GET /views/field?cols=balance  rows: any columns of the accounts, by id
//	GET /views/found?n=N&step=S    number: how many of N ids (i*S mod 2*accounts, for i < N)
//	                               are accounts: N lookups by key, about half missing
//
// Every Rows view takes ?from=&count= (at most 10,000) and computes only
// its page. pure/baseline/sqlite holds the same queries in SQL, and a test
// there checks that both give the same answers over the same data. The
// workloads that count their instructions are in package bankwork.
//
// Inputs: deposit?id=&amount= moves a balance (refused below -1,000,000
// cents with 409), so the app is a served app and not a snapshot.
package bank
