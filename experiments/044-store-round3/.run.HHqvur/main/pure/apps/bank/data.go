package bank

import (
	"math/rand/v2"

	"workbench/pure/app"
	"workbench/pure/store"
)

// Account is one seeded account.
type Account struct {
	ID      int64
	Branch  int64
	Balance int64 // cents; some are negative
	Name    string
	Kind    string // "checking" or "savings"
	Opened  int64  // the year
}

// BranchRow is one seeded branch.
type BranchRow struct {
	ID   int64
	Name string
	City string
}

// seed fixes every account and branch.
const seed = 0xba4c

var cities = []string{"Aberdeen", "Bergen", "Cork", "Dijon", "Essen", "Faro", "Graz", "Haarlem", "Ibiza", "Jena", "Kiel", "Lille", "Malmo", "Nice", "Oulu", "Porto", "Riga", "Split", "Turku", "Uppsala"}

// Branches returns the number of branches of a bank of n accounts: one
// per 100 accounts, at least one.
func Branches(n int) int { return max(1, n/100) }

// Data returns the seeded accounts (ids 0 to n-1) and branches of a bank
// of n accounts. The same n always gives the same data.
func Data(n int) ([]Account, []BranchRow) {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	nb := Branches(n)
	bs := make([]BranchRow, nb)
	for i := range bs {
		bs[i] = BranchRow{ID: int64(i), Name: "Branch " + string(rune('A'+i%26)) + itoa(int64(i)), City: cities[rng.IntN(len(cities))]}
	}
	as := make([]Account, n)
	kinds := [2]string{"checking", "savings"}
	for i := range as {
		name := make([]byte, 6)
		for j := range name {
			name[j] = byte('a' + rng.IntN(26))
		}
		as[i] = Account{
			ID:      int64(i),
			Branch:  int64(rng.IntN(nb)),
			Balance: int64(rng.IntN(40_001)-10_000) * 50,
			Name:    string(name),
			Kind:    kinds[rng.IntN(2)],
			Opened:  int64(1990 + rng.IntN(36)),
		}
	}
	return as, bs
}

// Seed writes the data of a bank of n accounts into st (see Data), for
// New's app to load at Start.
func Seed(st *store.Store, n int) error {
	as, bs := Data(n)
	return app.Load(st, New(), func(l *app.Loader) error {
		for _, b := range bs {
			r := l.New("branches", BranchKey(b.ID))
			r.SetText("name", b.Name)
			r.SetText("city", b.City)
			if err := l.Put(r); err != nil {
				return err
			}
		}
		for _, a := range as {
			r := l.New("accounts", AccountKey(a.ID))
			r.SetIntAt(colBranch, a.Branch)
			r.SetIntAt(colBalance, a.Balance)
			r.SetTextAt(colName, a.Name)
			r.SetTextAt(colKind, a.Kind)
			r.SetIntAt(colOpened, a.Opened)
			if err := l.Put(r); err != nil {
				return err
			}
		}
		return nil
	})
}

// AccountKey returns the key of account id: 8 decimal digits.
func AccountKey(id int64) string { return string(appendDigits(nil, id, 8)) }

// BranchKey returns the key of branch id: 4 decimal digits.
func BranchKey(id int64) string { return string(appendDigits(nil, id, 4)) }

// appendDigits appends v (0 <= v < 10^width) in width decimal digits.
func appendDigits(b []byte, v int64, width int) []byte {
	n := len(b)
	for range width {
		b = append(b, 0)
	}
	for i := len(b) - 1; i >= n; i-- {
		b[i] = byte('0' + v%10)
		v /= 10
	}
	return b
}

func itoa(v int64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + v%10)
		if v /= 10; v == 0 {
			break
		}
	}
	return string(b[i:])
}
