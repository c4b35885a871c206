// Command orders prints, one JSON line per bound, the order statistics the
// judge's sequential rule (judge.Looks{First: 6, Last: N}.Orders(0.95))
// uses after each number of pairs, for probe 1028's simulation.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"workbench/experiments/lab/judge"
)

func main() {
	for _, last := range []int{20, 24, 30, 36, 40, 48, 60} {
		ks, budget := judge.Looks{First: 6, Last: last}.Orders(0.95)
		b, err := json.Marshal(map[string]any{"last": last, "ks": ks, "budget": budget})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(string(b))
	}
}
